package io.duetdb.sql.parser.account;

import static java.util.Objects.requireNonNull;

/**
 * An account and how it authenticates: {@code IDENTIFIED [WITH plugin] [BY 'password']}; the plugin null when not
 * named, the password empty when not given.
 */
public record UserSpecification(AccountName account, String plugin, String password) {
    public UserSpecification {
        requireNonNull(account, "account is null");
        requireNonNull(password, "password is null");
    }
}
