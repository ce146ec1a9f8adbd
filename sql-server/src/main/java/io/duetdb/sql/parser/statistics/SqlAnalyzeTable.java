package io.duetdb.sql.parser.statistics;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE t [, ...] [options]: statistics for each table. MySQL's and TiDB's
 * options (WITH n BUCKETS, ALL COLUMNS, UPDATE HISTOGRAM ON c, ...) are accepted; every column and index is
 * analyzed whatever they say.
 */
public final class SqlAnalyzeTable extends DuetSqlCall {
    private final SqlNodeList tables;

    public SqlAnalyzeTable(SqlParserPos pos, SqlNodeList tables) {
        super(pos, "ANALYZE TABLE");
        this.tables = requireNonNull(tables, "tables is null");
    }

    public List<SqlIdentifier> tables() {
        return identifiers(tables);
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(tables);
    }
}
