package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE's ADD [CONSTRAINT [name]] FOREIGN KEY ... and DROP FOREIGN KEY name. */
public final class SqlAlterTableForeignKey extends DuetSqlCall {
    private final SqlForeignKey added;
    private final SqlIdentifier dropped;

    private SqlAlterTableForeignKey(SqlParserPos pos, SqlForeignKey added, SqlIdentifier dropped) {
        super(pos, added != null ? "ALTER TABLE ADD FOREIGN KEY" : "ALTER TABLE DROP FOREIGN KEY");
        this.added = added;
        this.dropped = dropped;
    }

    public static SqlAlterTableForeignKey add(SqlParserPos pos, SqlForeignKey foreignKey) {
        return new SqlAlterTableForeignKey(pos, foreignKey, null);
    }

    public static SqlAlterTableForeignKey drop(SqlParserPos pos, SqlIdentifier name) {
        return new SqlAlterTableForeignKey(pos, null, name);
    }

    /** The foreign key ADD adds; null for DROP. */
    public SqlForeignKey added() {
        return added;
    }

    /** The name DROP drops; null for ADD. */
    public SqlIdentifier dropped() {
        return dropped;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(added, dropped);
    }
}
