package io.duetdb.sql.parser.bulk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.DuetSqlCall;
import io.duetdb.sql.parser.UserVariables;

/** LOAD DATA [LOCAL] INFILE 'file' [REPLACE | IGNORE] INTO TABLE t ... (MySQL's). */
public final class SqlLoadData extends DuetSqlCall {
    private final boolean local;
    private final SqlNode file;
    private final String duplicates;
    private final SqlIdentifier table;
    private final String charset;
    private final SqlNode fieldsTerminatedBy;
    private final SqlNode enclosedBy;
    private final SqlNode escapedBy;
    private final SqlNode linesStartingBy;
    private final SqlNode linesTerminatedBy;
    private final SqlNode ignoreLines;
    private final SqlNodeList columns;
    private final SqlNodeList assignments;

    public SqlLoadData(SqlParserPos pos, boolean local, SqlNode file, String duplicates, SqlIdentifier table,
            String charset, SqlNode fieldsTerminatedBy, SqlNode enclosedBy, SqlNode escapedBy, SqlNode linesStartingBy,
            SqlNode linesTerminatedBy, SqlNode ignoreLines, SqlNodeList columns, SqlNodeList assignments) {
        super(pos, "LOAD DATA");
        this.local = local;
        this.file = file;
        this.duplicates = duplicates;
        this.table = table;
        this.charset = charset;
        this.fieldsTerminatedBy = fieldsTerminatedBy;
        this.enclosedBy = enclosedBy;
        this.escapedBy = escapedBy;
        this.linesStartingBy = linesStartingBy;
        this.linesTerminatedBy = linesTerminatedBy;
        this.ignoreLines = ignoreLines;
        this.columns = columns;
        this.assignments = assignments;
    }

    public boolean local() {
        return local;
    }

    public String file() {
        return text(file);
    }

    public boolean replace() {
        return "REPLACE".equals(duplicates);
    }

    public boolean ignore() {
        return "IGNORE".equals(duplicates);
    }

    public SqlIdentifier table() {
        return table;
    }

    /** The CHARACTER SET clause's name, or null. */
    public String charset() {
        return charset;
    }

    /** FIELDS TERMINATED BY; null when not given. */
    public String fieldsTerminatedBy() {
        return text(fieldsTerminatedBy);
    }

    public String enclosedBy() {
        return text(enclosedBy);
    }

    public String escapedBy() {
        return text(escapedBy);
    }

    public String linesStartingBy() {
        return text(linesStartingBy);
    }

    public String linesTerminatedBy() {
        return text(linesTerminatedBy);
    }

    /** IGNORE n LINES; 0 when not given. */
    public long ignoreLines() {
        return ignoreLines == null ? 0 : SqlLiteral.unchain(ignoreLines).getValueAs(Long.class);
    }

    /** What one field of a row fills: a column, or a user variable the SET clause may use. */
    public record Field(String name, boolean variable) {
    }

    /** The fields of each row, in order; empty for all of the table's columns. */
    public List<Field> fields() {
        if (columns == null) {
            return List.of();
        }
        List<Field> fields = new ArrayList<>();
        for (SqlNode node : columns) {
            if (node instanceof SqlIdentifier identifier && identifier.isSimple()) {
                fields.add(new Field(identifier.getSimple(), false));
            } else {
                String variable = UserVariables.name(node);
                if (variable == null) {
                    throw new DuetException(ErrorCode.PARSE_ERROR, "You have an error in your SQL syntax; check the"
                            + " manual that corresponds to your MySQL server version for the right syntax to use near '"
                            + node + "': LOAD DATA fills columns and user variables");
                }
                fields.add(new Field(variable, true));
            }
        }
        return fields;
    }

    /** Whether a SET clause was given. */
    public boolean hasAssignments() {
        return !assignments.isEmpty();
    }

    /** The SET clause's columns and the expressions that give them, in order. */
    public List<Map.Entry<String, SqlNode>> assignments() {
        List<Map.Entry<String, SqlNode>> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < assignments.size(); i += 2) {
            pairs.add(Map.entry(((SqlIdentifier) assignments.get(i)).getSimple(), assignments.get(i + 1)));
        }
        return pairs;
    }

    private static String text(SqlNode literal) {
        return literal == null ? null : SqlLiteral.unchain(literal).getValueAs(String.class);
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(file, table, columns, assignments);
    }
}
