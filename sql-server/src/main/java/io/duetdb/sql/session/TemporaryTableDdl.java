package io.duetdb.sql.session;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.ddl.SqlAlterTable;
import io.duetdb.sql.parser.ddl.SqlAlterTableForeignKey;
import io.duetdb.sql.parser.ddl.SqlAlterTableRename;
import io.duetdb.sql.parser.ddl.SqlAlterTableSetReplica;
import io.duetdb.sql.parser.ddl.SqlCreateIndex;
import io.duetdb.sql.parser.ddl.SqlDropIndex;
import io.duetdb.sql.parser.ddl.SqlRenameTable;
import io.duetdb.sql.parser.ddl.SqlTruncateTable;

/**
 * DDL over a session's temporary tables: ALTER TABLE, TRUNCATE TABLE, CREATE INDEX and DROP INDEX of a name the
 * session holds a temporary table by change that table (it hides the table of that name, as in MySQL). Renaming one,
 * giving it a foreign key or a columnar replica is refused: it would leave the session's tables.
 */
final class TemporaryTableDdl {
    private TemporaryTableDdl() {
    }

    /** Points {@code statement} at the temporary table it names, if it names one (in place). */
    static void redirect(SqlNode statement, TemporaryTables temporaryTables) {
        if (statement instanceof SqlAlterTable alter && names(alter.table(), temporaryTables)) {
            for (SqlNode action : alter.actions()) {
                if (action instanceof SqlAlterTableRename || action instanceof SqlAlterTableForeignKey
                        || action instanceof SqlAlterTableSetReplica) {
                    throw unsupported("this ALTER TABLE of a temporary table");
                }
            }
            temporaryTables.redirect(alter.table());
        } else if (statement instanceof SqlTruncateTable truncate) {
            temporaryTables.redirect(truncate.table());
        } else if (statement instanceof SqlCreateIndex create) {
            temporaryTables.redirect(create.table());
        } else if (statement instanceof SqlDropIndex drop) {
            temporaryTables.redirect(drop.table());
        } else if (statement instanceof SqlRenameTable rename) {
            for (SqlNode table : rename.from()) {
                if (names((SqlIdentifier) table, temporaryTables)) {
                    throw unsupported("RENAME TABLE of a temporary table");
                }
            }
        }
    }

    private static boolean names(SqlIdentifier identifier, TemporaryTables temporaryTables) {
        SqlIdentifier copy = (SqlIdentifier) identifier.clone(identifier.getParserPosition());
        temporaryTables.redirect(copy);
        return !copy.names.equals(identifier.names);
    }

    private static DuetException unsupported(String what) {
        return new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support '" + what
                + "'");
    }
}
