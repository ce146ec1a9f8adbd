package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * ALTER TABLE's CHECK constraint actions: ADD [CONSTRAINT [name]] CHECK (condition), DROP {CHECK | CONSTRAINT}
 * name, ALTER {CHECK | CONSTRAINT} name [NOT] ENFORCED.
 */
public final class SqlAlterTableCheck extends DuetSqlCall {
    public enum Action {
        ADD,
        DROP,
        ALTER
    }

    private final Action action;
    private final SqlCheckConstraint constraint;
    private final SqlIdentifier name;
    private final boolean enforced;

    private SqlAlterTableCheck(SqlParserPos pos, Action action, SqlCheckConstraint constraint, SqlIdentifier name,
            boolean enforced) {
        super(pos, "ALTER TABLE " + action + " CHECK");
        this.action = action;
        this.constraint = constraint;
        this.name = name;
        this.enforced = enforced;
    }

    public static SqlAlterTableCheck add(SqlParserPos pos, SqlCheckConstraint constraint) {
        return new SqlAlterTableCheck(pos, Action.ADD, constraint, constraint.name(), constraint.enforced());
    }

    public static SqlAlterTableCheck drop(SqlParserPos pos, SqlIdentifier name) {
        return new SqlAlterTableCheck(pos, Action.DROP, null, name, false);
    }

    public static SqlAlterTableCheck alter(SqlParserPos pos, SqlIdentifier name, boolean enforced) {
        return new SqlAlterTableCheck(pos, Action.ALTER, null, name, enforced);
    }

    public Action action() {
        return action;
    }

    /** The constraint ADD adds; null for DROP and ALTER. */
    public SqlCheckConstraint constraint() {
        return constraint;
    }

    /** The constraint's name; null for ADD without one. */
    public SqlIdentifier name() {
        return name;
    }

    public boolean enforced() {
        return enforced;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, constraint);
    }
}
