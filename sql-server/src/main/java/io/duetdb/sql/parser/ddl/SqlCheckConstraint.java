package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** {@code [CONSTRAINT [name]] CHECK (condition) [[NOT] ENFORCED]} of a table or a column; the name may be null. */
public final class SqlCheckConstraint extends DuetSqlCall {
    private final SqlIdentifier name;
    private final SqlNode condition;
    private final boolean enforced;
    private final String text;

    public SqlCheckConstraint(SqlParserPos pos, SqlIdentifier name, SqlNode condition, String text, boolean enforced) {
        super(pos, "CHECK CONSTRAINT");
        this.text = text;
        this.name = name;
        this.condition = condition;
        this.enforced = enforced;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNode condition() {
        return condition;
    }

    /** The condition's text as written. */
    public String text() {
        return text;
    }

    public boolean enforced() {
        return enforced;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(name, condition);
    }
}
