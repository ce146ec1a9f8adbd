package io.duetdb.sql.parser.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * MySQL's SET of variables, assigned left to right: user variables ({@code @name = value} or {@code := value}),
 * system variables ({@code [GLOBAL | SESSION | LOCAL | PERSIST | PERSIST_ONLY] name = value} or
 * {@code @@[scope.]name = value}; a scope keyword holds for the assignments after it that name none),
 * {@code NAMES charset [COLLATE collation]} and {@code CHARACTER SET charset}.
 */
public final class SqlSetVariables extends DuetSqlCall {
    /** Where a system variable is set. */
    public enum Scope {
        SESSION,
        GLOBAL,
        /** GLOBAL, and kept across restarts by MySQL. */
        PERSIST,
        /** Kept for the next restart only, by MySQL. */
        PERSIST_ONLY
    }

    /** One assignment of a SET. */
    public sealed interface Assignment permits UserVariable, SystemVariable, CharacterSet {
    }

    /** {@code @name = value}; the name in lower case. */
    public record UserVariable(String name, SqlNode value) implements Assignment {
        public UserVariable {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** A system variable (name in lower case) and its value; a null value is DEFAULT. */
    public record SystemVariable(Scope scope, String name, SqlNode value) implements Assignment {
        public SystemVariable {
            requireNonNull(scope, "scope is null");
            name = requireNonNull(name, "name is null").toLowerCase(Locale.ROOT);
        }

        public boolean isDefault() {
            return value == null;
        }
    }

    /**
     * {@code NAMES charset [COLLATE collation]} ({@code names} true) or {@code CHARACTER SET charset}; the charset is
     * null for DEFAULT, the collation null when not given.
     */
    public record CharacterSet(boolean names, String charset, String collation) implements Assignment {
    }

    private final List<Assignment> assignments;

    public SqlSetVariables(SqlParserPos pos, List<Assignment> assignments) {
        super(pos, "SET");
        this.assignments = List.copyOf(assignments);
    }

    public List<Assignment> assignments() {
        return assignments;
    }

    @Override
    protected List<SqlNode> operands() {
        List<SqlNode> values = new ArrayList<>();
        for (Assignment assignment : assignments) {
            if (assignment instanceof UserVariable user) {
                values.add(user.value());
            } else if (assignment instanceof SystemVariable system && system.value() != null) {
                values.add(system.value());
            }
        }
        return values;
    }
}
