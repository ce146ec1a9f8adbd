package io.duetdb.sql.parser.session;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** USE database: the session's current database. */
public final class SqlUseDatabase extends DuetSqlCall {
    private final SqlIdentifier database;

    public SqlUseDatabase(SqlParserPos pos, SqlIdentifier database) {
        super(pos, "USE");
        this.database = requireNonNull(database, "database is null");
    }

    public String database() {
        return database.getSimple();
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(database);
    }
}
