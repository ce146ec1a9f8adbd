package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER DATABASE name SET TIFLASH REPLICA n (or COLUMNAR REPLICA n): column learner replicas of every table. */
public final class SqlAlterDatabaseSetReplica extends DuetSqlCall {
    private final SqlIdentifier name;
    private final int count;

    public SqlAlterDatabaseSetReplica(SqlParserPos pos, SqlIdentifier name, int count) {
        super(pos, "ALTER DATABASE SET TIFLASH REPLICA");
        this.name = name;
        this.count = count;
    }

    public SqlIdentifier name() {
        return name;
    }

    public int count() {
        return count;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, SqlLiteral.createExactNumeric(Integer.toString(count), SqlParserPos.ZERO));
    }
}
