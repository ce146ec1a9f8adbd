package io.duetdb.sql.parser.prepare;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** EXECUTE name [USING @variable, ...]. */
public final class SqlExecute extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlNodeList arguments;

    public SqlExecute(SqlParserPos pos, SqlIdentifier name, SqlNodeList arguments) {
        super(pos, "EXECUTE");
        this.name = name;
        this.arguments = arguments;
    }

    public String name() {
        return name.getSimple();
    }

    /** The USING list: user variables, as MySQL requires. */
    public List<SqlNode> arguments() {
        return new ArrayList<>(arguments.getList());
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, arguments);
    }
}
