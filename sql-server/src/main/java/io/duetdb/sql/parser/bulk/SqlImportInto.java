package io.duetdb.sql.parser.bulk;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.DuetSqlCall;

/** IMPORT INTO t [(column, ...)] FROM 'location' [FORMAT 'format'] [WITH option [= value], ...]. */
public final class SqlImportInto extends DuetSqlCall {
    private final SqlIdentifier table;
    private final SqlNodeList columns;
    private final SqlNode location;
    private final SqlNode format;
    private final SqlNodeList options;

    public SqlImportInto(SqlParserPos pos, SqlIdentifier table, SqlNodeList columns, SqlNode location, SqlNode format,
            SqlNodeList options) {
        super(pos, "IMPORT INTO");
        this.table = table;
        this.columns = columns;
        this.location = location;
        this.format = format;
        this.options = options;
    }

    public SqlIdentifier table() {
        return table;
    }

    /** The columns the fields fill, in order; empty for all of the table's columns. */
    public List<String> columns() {
        return columns == null ? List.of() : columns.stream().map(node -> ((SqlIdentifier) node).getSimple()).toList();
    }

    public String location() {
        return SqlLiteral.unchain(location).getValueAs(String.class);
    }

    /** The format, lower case; csv unless given. */
    public String format() {
        return format == null ? "csv" : SqlLiteral.unchain(format).getValueAs(String.class).toLowerCase(Locale.ROOT);
    }

    /** The WITH options by upper-case name, as text (a flag given without a value reads "true"). */
    public Map<String, String> options() {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i + 1 < options.size(); i += 2) {
            String name = ((SqlIdentifier) options.get(i)).getSimple().toUpperCase(Locale.ROOT);
            SqlLiteral literal = SqlLiteral.unchain(options.get(i + 1));
            String value = literal.getValue() == null ? null : literal.toValue();
            if (values.put(name, value) != null) {
                throw new DuetException(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG, "option " + name + " is given twice");
            }
        }
        return values;
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(table, columns, location, format, options);
    }
}
