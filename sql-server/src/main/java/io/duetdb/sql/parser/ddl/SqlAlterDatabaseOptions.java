package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ALTER DATABASE name [DEFAULT] CHARACTER SET ... [DEFAULT] COLLATE ...: the default of tables created later. */
public final class SqlAlterDatabaseOptions extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlNodeList options;

    public SqlAlterDatabaseOptions(SqlParserPos pos, SqlIdentifier name, SqlNodeList options) {
        super(pos, "ALTER DATABASE");
        this.name = name;
        this.options = options;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNodeList options() {
        return options;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, options);
    }
}
