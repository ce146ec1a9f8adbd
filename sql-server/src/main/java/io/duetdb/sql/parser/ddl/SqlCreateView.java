package io.duetdb.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * CREATE [OR REPLACE] [ALGORITHM = ...] [DEFINER = user] [SQL SECURITY {DEFINER | INVOKER}] VIEW name [(columns)]
 * AS query [WITH [CASCADED | LOCAL] CHECK OPTION], and ALTER VIEW with the same parts. The query is kept as the
 * text the statement gave it ({@link #definition()}), which the catalog stores and planners parse again.
 */
public final class SqlCreateView extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE VIEW", SqlKind.CREATE_VIEW);

    /** The options written before VIEW; null where a statement leaves one out. */
    public record Options(String algorithm, String definer, String security) {
    }

    private final boolean alter;
    private final SqlIdentifier name;
    private final SqlNodeList columns;
    private final SqlNode query;
    private final String definition;
    private final Options options;
    private final String checkOption;

    /**
     * {@code alter}: ALTER VIEW (the view must exist); {@code columns}: the column list, or null;
     * {@code checkOption}: CASCADED or LOCAL for WITH CHECK OPTION, or null.
     */
    public SqlCreateView(SqlParserPos pos, boolean replace, boolean alter, SqlIdentifier name, SqlNodeList columns,
            SqlNode query, String definition, Options options, String checkOption) {
        super(OPERATOR, pos, replace, false);
        this.alter = alter;
        this.name = requireNonNull(name, "name is null");
        this.columns = columns;
        this.query = requireNonNull(query, "query is null");
        this.definition = requireNonNull(definition, "definition is null");
        this.options = requireNonNull(options, "options is null");
        this.checkOption = checkOption;
    }

    /** The text of {@code sql} from line and column {@code begin} to {@code end} (1-based, end inclusive). */
    public static String text(String sql, int beginLine, int beginColumn, int endLine, int endColumn) {
        return sql.substring(SqlParserUtil.lineColToIndex(sql, beginLine, beginColumn),
                SqlParserUtil.lineColToIndex(sql, endLine, endColumn) + 1);
    }

    /** The same statement with its definer set (a session fills in CURRENT_USER). */
    public SqlCreateView withDefiner(String definer) {
        return new SqlCreateView(getParserPosition(), getReplace(), alter, name, columns, query, definition,
                new Options(options.algorithm(), definer, options.security()), checkOption);
    }

    public boolean replace() {
        return getReplace();
    }

    public boolean alter() {
        return alter;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** The column names the statement lists, or null. */
    public SqlNodeList columns() {
        return columns;
    }

    /** The query as parsed (planners must not validate it: validation rewrites the tree). */
    public SqlNode query() {
        return query;
    }

    /** The query's text as the statement wrote it. */
    public String definition() {
        return definition;
    }

    public Options options() {
        return options;
    }

    public String checkOption() {
        return checkOption;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name, columns);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
