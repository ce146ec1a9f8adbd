package io.duetdb.sql.parser.prepare;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** {DEALLOCATE | DROP} PREPARE name. */
public final class SqlDeallocatePrepare extends DuetSqlCall {
    private final SqlIdentifier name;

    public SqlDeallocatePrepare(SqlParserPos pos, SqlIdentifier name) {
        super(pos, "DEALLOCATE PREPARE");
        this.name = name;
    }

    public String name() {
        return name.getSimple();
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name);
    }
}
