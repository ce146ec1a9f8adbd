package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * {@code [CONSTRAINT [name]] FOREIGN KEY [index] (columns) REFERENCES table (columns) [ON DELETE action]
 * [ON UPDATE action]}; the name may be null, the actions are MySQL's words (RESTRICT, CASCADE, SET NULL, SET DEFAULT,
 * NO ACTION), null when not given.
 */
public final class SqlForeignKey extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlNodeList columns;
    private final SqlIdentifier referencedTable;
    private final SqlNodeList referencedColumns;
    private final String onDelete;
    private final String onUpdate;

    public SqlForeignKey(SqlParserPos pos, SqlIdentifier name, SqlNodeList columns, SqlIdentifier referencedTable,
            SqlNodeList referencedColumns, String onDelete, String onUpdate) {
        super(pos, "FOREIGN KEY");
        this.name = name;
        this.columns = columns;
        this.referencedTable = referencedTable;
        this.referencedColumns = referencedColumns;
        this.onDelete = onDelete;
        this.onUpdate = onUpdate;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNodeList columns() {
        return columns;
    }

    public SqlIdentifier referencedTable() {
        return referencedTable;
    }

    public SqlNodeList referencedColumns() {
        return referencedColumns;
    }

    public String onDelete() {
        return onDelete;
    }

    public String onUpdate() {
        return onUpdate;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, columns, referencedTable, referencedColumns);
    }
}
