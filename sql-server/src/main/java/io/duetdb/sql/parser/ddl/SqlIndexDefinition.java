package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A PRIMARY KEY, UNIQUE or plain index of a table; the name is null when not given. */
public final class SqlIndexDefinition extends DuetSqlCall {
    public enum Kind { PRIMARY, UNIQUE, INDEX }

    private final Kind kind;
    private final SqlIdentifier name;
    private final SqlNodeList columns;
    /** CLUSTERED (true) or NONCLUSTERED (false) after a PRIMARY KEY; null when not said. */
    private final Boolean clustered;

    public SqlIndexDefinition(SqlParserPos pos, Kind kind, SqlIdentifier name, SqlNodeList columns, Boolean clustered) {
        super(pos, "INDEX DEFINITION");
        this.kind = kind;
        this.name = name;
        this.columns = columns;
        this.clustered = clustered;
    }

    public Boolean clustered() {
        return clustered;
    }

    public Kind kind() {
        return kind;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNodeList columns() {
        return columns;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, columns);
    }
}
