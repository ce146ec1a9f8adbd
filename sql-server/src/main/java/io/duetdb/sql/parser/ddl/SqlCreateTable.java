package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (elements) options, CREATE TABLE name LIKE other, or CREATE TABLE
 * name [(elements)] [options] [AS] query (the query's columns follow the elements, and its rows fill the table).
 */
public final class SqlCreateTable extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.OTHER_DDL);

    private final boolean temporary;
    private final SqlIdentifier name;
    private final SqlNodeList elements;
    private final SqlNodeList options;
    private final SqlIdentifier likeTable;
    private final SqlNode query;

    public SqlCreateTable(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList elements,
            SqlNodeList options, SqlIdentifier likeTable, SqlNode query) {
        this(pos, false, ifNotExists, name, elements, options, likeTable, query);
    }

    public SqlCreateTable(SqlParserPos pos, boolean temporary, boolean ifNotExists, SqlIdentifier name,
            SqlNodeList elements, SqlNodeList options, SqlIdentifier likeTable, SqlNode query) {
        super(OPERATOR, pos, false, ifNotExists);
        this.temporary = temporary;
        this.name = name;
        this.elements = elements;
        this.options = options;
        this.likeTable = likeTable;
        this.query = query;
    }

    /** CREATE TEMPORARY TABLE: a table of this session only, dropped when it ends. */
    public boolean temporary() {
        return temporary;
    }

    /** The same statement creating {@code table} instead, as a table of the catalog. */
    public SqlCreateTable named(SqlIdentifier table, SqlIdentifier like) {
        return new SqlCreateTable(getParserPosition(), false, ifNotExists, table, elements, options, like, query);
    }

    /** The query of CREATE TABLE ... SELECT, or null. */
    public SqlNode query() {
        return query;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNodeList elements() {
        return elements;
    }

    public SqlNodeList options() {
        return options;
    }

    public SqlIdentifier likeTable() {
        return likeTable;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name, elements, options, likeTable, query);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
