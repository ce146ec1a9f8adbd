package io.duetdb.sql.session;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.catalog.ViewInfo;

/**
 * SHOW CREATE VIEW's statement in MySQL's form. The column list is always written (the query is kept as its
 * CREATE VIEW gave it, so the names are not in it), so the statement creates the same view again.
 */
final class CreateViewText {
    private CreateViewText() {
    }

    static String of(TableInfo table) {
        ViewInfo view = table.view();
        StringBuilder text = new StringBuilder("CREATE ALGORITHM=").append(view.algorithm()).append(" DEFINER=")
                .append(definer(view.definer())).append(" SQL SECURITY ").append(view.security()).append(" VIEW ")
                .append(quoted(table.name())).append(" (");
        for (int i = 0; i < table.columns().size(); i++) {
            ColumnInfo column = table.columns().get(i);
            text.append(i > 0 ? "," : "").append(quoted(column.name()));
        }
        text.append(") AS ").append(view.definition());
        if (!view.checkOption().equals("NONE")) {
            text.append(" WITH ").append(view.checkOption()).append(" CHECK OPTION");
        }
        return text.toString();
    }

    /** user@host as `user`@`host`. */
    private static String definer(String definer) {
        int at = definer.lastIndexOf('@');
        return at < 0 ? quoted(definer) : quoted(definer.substring(0, at)) + "@" + quoted(definer.substring(at + 1));
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
