package io.duetdb.sql.parser.show;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * SHOW what [FROM object [FROM database]] [LIKE 'pattern' | WHERE condition], MySQL 8.0's forms: the object is the
 * table of SHOW COLUMNS and SHOW INDEX, the named object of SHOW CREATE, or the database of SHOW TABLES and the like.
 */
public final class SqlShow extends DuetSqlCall {
    /** What a SHOW statement lists. */
    public enum Kind {
        DATABASES,
        TABLES,
        TABLE_STATUS,
        COLUMNS,
        INDEX,
        CREATE_TABLE,
        CREATE_VIEW,
        CREATE_DATABASE,
        VARIABLES,
        STATUS,
        ENGINES,
        COLLATION,
        CHARACTER_SET,
        TRIGGERS,
        PROCEDURE_STATUS,
        FUNCTION_STATUS,
        EVENTS,
        OPEN_TABLES,
        PLUGINS,
        PROCESSLIST,
        WARNINGS,
        ERRORS,
        WARNING_COUNT,
        ERROR_COUNT,
        STATS_META,
        STATS_HISTOGRAMS,
        STATS_BUCKETS,
        STATS_TOPN
    }

    /** The scope SHOW VARIABLES and SHOW STATUS read. */
    public enum Scope {
        SESSION,
        GLOBAL
    }

    private final Kind kind;
    private final boolean full;
    private final Scope scope;
    private final SqlIdentifier object;
    private final SqlIdentifier database;
    private final SqlNode like;
    private final SqlNode where;
    private final boolean ifNotExists;

    public SqlShow(SqlParserPos pos, Kind kind, boolean full, Scope scope, SqlIdentifier object, SqlIdentifier database,
            SqlNode like, SqlNode where, boolean ifNotExists) {
        super(pos, "SHOW " + kind.name().replace('_', ' '));
        this.kind = requireNonNull(kind, "kind is null");
        this.full = full;
        this.scope = requireNonNull(scope, "scope is null");
        this.object = object;
        this.database = database;
        this.like = like;
        this.where = where;
        this.ifNotExists = ifNotExists;
    }

    public Kind kind() {
        return kind;
    }

    /** SHOW FULL TABLES, FULL COLUMNS, FULL PROCESSLIST. */
    public boolean full() {
        return full;
    }

    public Scope scope() {
        return scope;
    }

    /** The table, view or database named (SHOW COLUMNS FROM t, SHOW CREATE TABLE t ...). */
    public Optional<SqlIdentifier> object() {
        return Optional.ofNullable(object);
    }

    /** The database a FROM or IN clause names. */
    public Optional<String> database() {
        return Optional.ofNullable(database).map(SqlIdentifier::getSimple);
    }

    /** The LIKE pattern, matched against the first column. */
    public Optional<String> like() {
        return Optional.ofNullable(like).map(pattern -> ((SqlLiteral) pattern).getValueAs(String.class));
    }

    /** The WHERE condition, over the columns the statement shows. */
    public Optional<SqlNode> where() {
        return Optional.ofNullable(where);
    }

    /** SHOW CREATE DATABASE IF NOT EXISTS: the statement shown keeps the clause. */
    public boolean ifNotExists() {
        return ifNotExists;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(object, database, like, where);
    }
}
