package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE ... SET TIFLASH REPLICA n (TiDB's spelling) or SET COLUMNAR REPLICA n: column learner replicas. */
public final class SqlAlterTableSetReplica extends DuetSqlCall {
    private final int count;

    public SqlAlterTableSetReplica(SqlParserPos pos, int count) {
        super(pos, "ALTER TABLE SET TIFLASH REPLICA");
        this.count = count;
    }

    public int count() {
        return count;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(SqlLiteral.createExactNumeric(Integer.toString(count), SqlParserPos.ZERO));
    }
}
