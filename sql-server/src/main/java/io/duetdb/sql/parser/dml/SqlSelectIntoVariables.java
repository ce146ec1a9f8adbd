package io.duetdb.sql.parser.dml;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's {@code query [locking clause] INTO @v [, @w ...]}: the query's one row stored in user variables (names in
 * lower case), a variable per column.
 */
public final class SqlSelectIntoVariables extends DuetSqlCall {
    private final SqlNode query;
    private final List<String> variables;

    /** {@code query} is a query, or a {@link SqlQueryWithLocking}. */
    public SqlSelectIntoVariables(SqlParserPos pos, SqlNode query, List<String> variables) {
        super(pos, "SELECT INTO");
        this.query = requireNonNull(query, "query is null");
        this.variables = List.copyOf(variables);
    }

    public SqlNode query() {
        return query;
    }

    public List<String> variables() {
        return variables;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(query);
    }
}
