package io.duetdb.sql.parser.dml;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's INSERT [IGNORE] / REPLACE; the source is a VALUES call or a query; onDuplicate holds EQUALS(column,
 * expression) calls, whose expressions may read the inserted row as VALUES(column) or through the row alias
 * ({@code VALUES (...) AS new [(c1, c2, ...)]}, MySQL 8.0.19) as {@code new.column}.
 */
public final class SqlMySqlInsert extends DuetSqlCall {
    private final boolean replace;
    private final boolean ignore;
    private final SqlIdentifier table;
    private final SqlNodeList columns;
    private final SqlNode source;
    private final SqlNodeList onDuplicate;
    private final SqlIdentifier rowAlias;
    private final SqlNodeList rowAliasColumns;

    public SqlMySqlInsert(SqlParserPos pos, boolean replace, boolean ignore, SqlIdentifier table, SqlNodeList columns, SqlNode source, SqlNodeList onDuplicate) {
        this(pos, replace, ignore, table, columns, source, onDuplicate, null, null);
    }

    public SqlMySqlInsert(SqlParserPos pos, boolean replace, boolean ignore, SqlIdentifier table, SqlNodeList columns,
            SqlNode source, SqlNodeList onDuplicate, SqlIdentifier rowAlias, SqlNodeList rowAliasColumns) {
        super(pos, "MY SQL INSERT");
        this.replace = replace;
        this.ignore = ignore;
        this.table = table;
        this.columns = columns;
        this.source = source;
        this.onDuplicate = onDuplicate;
        this.rowAlias = rowAlias;
        this.rowAliasColumns = rowAliasColumns;
    }

    /** The name ON DUPLICATE KEY UPDATE reads the inserted row by, or null. */
    public SqlIdentifier rowAlias() {
        return rowAlias;
    }

    /** The row alias's own names for the inserted columns, in their order, or null. */
    public SqlNodeList rowAliasColumns() {
        return rowAliasColumns;
    }

    public boolean replace() {
        return replace;
    }

    public boolean ignore() {
        return ignore;
    }

    public SqlIdentifier table() {
        return table;
    }

    public SqlNodeList columns() {
        return columns;
    }

    public SqlNode source() {
        return source;
    }

    public SqlNodeList onDuplicate() {
        return onDuplicate;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(table, columns, source, onDuplicate, rowAlias, rowAliasColumns);
    }
}
