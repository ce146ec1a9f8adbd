package io.duetdb.sql.parser;

import java.util.Set;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CharLiteralStyle;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.generated.MySqlStringLiterals;
import io.duetdb.sql.parser.generated.MySqlTokenManager;

/**
 * Parses one statement with DuetDB's extended Calcite grammar, in MySQL's lexical conventions: backquoted
 * identifiers, single- and double-quoted strings with backslash escapes, case-insensitive names.
 */
public final class StatementParser {
    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withParserFactory(MySqlTokenManager.FACTORY)
            .withQuoting(Quoting.BACK_TICK_BACKSLASH)
            .withCharLiteralStyles(Set.of(CharLiteralStyle.BQ_SINGLE, CharLiteralStyle.BQ_DOUBLE))
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withConformance(SqlConformanceEnum.MYSQL_5)
            .withIdentifierMaxLength(256);

    private StatementParser() {
    }

    /** Parses a statement that names no variables or whose user variables are read as text. */
    public static SqlNode parse(String sql) {
        return parse(sql, VariableTypes.NONE);
    }

    /** Parses a statement, typing its variable references as the session's variables are typed. */
    public static SqlNode parse(String sql, VariableTypes variableTypes) {
        SqlParser.Config config = variableTypes == VariableTypes.NONE ? CONFIG
                : CONFIG.withParserFactory(MySqlTokenManager.factory(variableTypes));
        try {
            return SqlParser.create(sql, config).parseStmt();
        } catch (SqlParseException e) {
            String near = nearText(sql, e);
            throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the manual"
                    + " that corresponds to your MySQL server version for the right syntax to use near '" + near
                    + "' at line " + (e.getPos() == null ? 1 : e.getPos().getLineNum()), e);
        }
    }

    private static String nearText(String sql, SqlParseException e) {
        if (e.getPos() == null) {
            return "";
        }
        int line = e.getPos().getLineNum();
        int column = e.getPos().getColumnNum();
        int offset = 0;
        for (int current = 1; current < line && offset >= 0; current++) {
            offset = sql.indexOf('\n', offset);
            offset = offset < 0 ? -1 : offset + 1;
        }
        if (offset < 0) {
            return "";
        }
        int start = Math.min(sql.length(), Math.max(0, offset + column - 1));
        String rest = sql.substring(start);
        return rest.length() > 80 ? rest.substring(0, 80) : rest;
    }
}
