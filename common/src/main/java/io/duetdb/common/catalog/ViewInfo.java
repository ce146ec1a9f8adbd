package io.duetdb.common.catalog;

import static java.util.Objects.requireNonNull;

/**
 * What makes a catalog table a view (TiDB keeps a view as a table with view info): its query as the CREATE VIEW
 * statement wrote it, the database its unqualified names resolve in (the creating session's, null for none), and
 * MySQL's view attributes. The view's columns are the table's columns, derived from the query when it was created.
 */
public record ViewInfo(String definition, String resolveIn, String algorithm, String definer, String security,
        String checkOption, String characterSetClient, String collationConnection) {
    public ViewInfo {
        requireNonNull(definition, "definition is null");
        requireNonNull(algorithm, "algorithm is null");
        requireNonNull(definer, "definer is null");
        requireNonNull(security, "security is null");
        requireNonNull(checkOption, "checkOption is null");
        requireNonNull(characterSetClient, "characterSetClient is null");
        requireNonNull(collationConnection, "collationConnection is null");
    }

    /** SQL SECURITY INVOKER: the tables the view reads are checked against whoever reads the view. */
    public boolean invokerSecurity() {
        return security.equals("INVOKER");
    }
}
