package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A table option as written: name (upper case, CHARSET spelled CHARACTER SET) and value. */
public final class SqlTableOption extends DuetSqlCall {
    private final String name;
    private final String value;

    public SqlTableOption(SqlParserPos pos, String name, String value) {
        super(pos, "TABLE OPTION");
        this.name = name;
        this.value = value;
    }

    public String name() {
        return name;
    }

    public String value() {
        return value;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes();
    }
}
