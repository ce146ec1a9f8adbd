package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A column of CREATE TABLE or ALTER TABLE ADD COLUMN; nullable is null when not said. */
public final class SqlColumnDefinition extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlMySqlType type;
    private final Boolean nullable;
    private final SqlNode defaultValue;
    private final boolean autoIncrement;
    private final SqlIndexDefinition.Kind key;
    private final String comment;
    private final boolean onUpdateCurrentTimestamp;
    /** CLUSTERED (true) or NONCLUSTERED (false) after the column's PRIMARY KEY; null when not said. */
    private final Boolean clustered;
    private final List<SqlCheckConstraint> checks;
    /** GENERATED ALWAYS AS (expression), or null. */
    private final Generation generation;
    /** The text of a DEFAULT (expression), or null when the default is not an expression. */
    private final String defaultText;

    /** {@code [GENERATED ALWAYS] AS (expression) [VIRTUAL | STORED]}: the expression and its text as written. */
    public record Generation(SqlNode expression, String text, boolean stored) {
    }

    public SqlColumnDefinition(SqlParserPos pos, SqlIdentifier name, SqlMySqlType type, Boolean nullable,
            SqlNode defaultValue, boolean autoIncrement, SqlIndexDefinition.Kind key, String comment,
            boolean onUpdateCurrentTimestamp, Boolean clustered, List<SqlCheckConstraint> checks) {
        this(pos, name, type, nullable, defaultValue, null, autoIncrement, key, comment, onUpdateCurrentTimestamp,
                clustered, checks, null);
    }

    public SqlColumnDefinition(SqlParserPos pos, SqlIdentifier name, SqlMySqlType type, Boolean nullable,
            SqlNode defaultValue, String defaultText, boolean autoIncrement, SqlIndexDefinition.Kind key,
            String comment, boolean onUpdateCurrentTimestamp, Boolean clustered, List<SqlCheckConstraint> checks,
            Generation generation) {
        super(pos, "COLUMN DEFINITION");
        this.defaultText = defaultText;
        this.generation = generation;
        this.name = name;
        this.type = type;
        this.nullable = nullable;
        this.defaultValue = defaultValue;
        this.autoIncrement = autoIncrement;
        this.key = key;
        this.comment = comment;
        this.onUpdateCurrentTimestamp = onUpdateCurrentTimestamp;
        this.clustered = clustered;
        this.checks = List.copyOf(checks);
    }

    public Generation generation() {
        return generation;
    }

    public String defaultText() {
        return defaultText;
    }

    /** The column's CHECK constraints. */
    public List<SqlCheckConstraint> checks() {
        return checks;
    }

    public Boolean clustered() {
        return clustered;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlMySqlType type() {
        return type;
    }

    public Boolean nullable() {
        return nullable;
    }

    public SqlNode defaultValue() {
        return defaultValue;
    }

    public boolean autoIncrement() {
        return autoIncrement;
    }

    public SqlIndexDefinition.Kind key() {
        return key;
    }

    public String comment() {
        return comment;
    }

    public boolean onUpdateCurrentTimestamp() {
        return onUpdateCurrentTimestamp;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, type, defaultValue);
    }
}
