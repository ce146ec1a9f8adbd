package io.duetdb.sql.parser.account;

import static java.util.Objects.requireNonNull;

/** An account as statements name it: {@code user[@host]}, the host % when not given. */
public record AccountName(String user, String host) {
    public AccountName {
        requireNonNull(user, "user is null");
        requireNonNull(host, "host is null");
    }

    @Override
    public String toString() {
        return "'" + user + "'@'" + host + "'";
    }
}
