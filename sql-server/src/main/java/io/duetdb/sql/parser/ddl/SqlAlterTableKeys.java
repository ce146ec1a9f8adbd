package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER TABLE t DISABLE KEYS or ENABLE KEYS (MyISAM's deferred index maintenance; mysqldump writes it). */
public final class SqlAlterTableKeys extends DuetSqlCall {
    private final boolean enable;

    public SqlAlterTableKeys(SqlParserPos pos, boolean enable) {
        super(pos, enable ? "ENABLE KEYS" : "DISABLE KEYS");
        this.enable = enable;
    }

    public boolean enable() {
        return enable;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
