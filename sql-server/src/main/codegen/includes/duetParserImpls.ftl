<#--
  MySQL statements that Calcite's core grammar lacks: DDL, MySQL's INSERT / REPLACE / UPDATE / DELETE forms,
  and SELECT ... FOR UPDATE. Queries and expressions stay Calcite's own productions.
-->

boolean DuetIfNotExists() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean DuetIfExists() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** CREATE {DATABASE | SCHEMA} [IF NOT EXISTS] name [options]. */
SqlCreate DuetCreateDatabase(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlNodeList databaseOptions;
}
{
    ( <DATABASE> | <SCHEMA> ) ifNotExists = DuetIfNotExists() name = SimpleIdentifier()
    databaseOptions = DuetTableOptions()
    {
        return new SqlCreateDatabase(s.end(this), ifNotExists, name, databaseOptions);
    }
}

SqlDrop DuetDropDatabase(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    ( <DATABASE> | <SCHEMA> ) ifExists = DuetIfExists() name = SimpleIdentifier()
    {
        return new SqlDropDatabase(s.end(this), ifExists, name);
    }
}

/**
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name ( element, ... ) [options] [[AS] query], CREATE [TEMPORARY] TABLE
 * name LIKE other, and CREATE [TEMPORARY] TABLE name [AS] query.
 */
SqlCreate DuetCreateTable(Span s, boolean replace) :
{
    boolean temporary = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final List<SqlNode> elements = new ArrayList<SqlNode>();
    SqlNode element;
    SqlNodeList tableOptions = SqlNodeList.EMPTY;
    SqlIdentifier likeTable = null;
    SqlNode query = null;
}
{
    [ <TEMPORARY> { temporary = true; } ]
    <TABLE> ifNotExists = DuetIfNotExists() name = CompoundIdentifier()
    (
        <LIKE> likeTable = CompoundIdentifier()
    |
        // A query in parentheses is no element list: CREATE TABLE t (SELECT ...) is not read.
        LOOKAHEAD(1) <LPAREN>
        element = DuetTableElement() { elements.add(element); }
        ( <COMMA> element = DuetTableElement() { elements.add(element); } )*
        <RPAREN>
        tableOptions = DuetTableOptions()
        [ LOOKAHEAD({ DuetCreateTableQueryNext() }) query = DuetCreateTableQuery() ]
    |
        LOOKAHEAD({ DuetCreateTableQueryNext() }) query = DuetCreateTableQuery()
    )
    {
        return new SqlCreateTable(s.end(this), temporary, ifNotExists, name,
            new SqlNodeList(elements, s.pos()), tableOptions, likeTable, query);
    }
}

/** The query of CREATE TABLE ... [AS] SELECT (or WITH ...). */
SqlNode DuetCreateTableQuery() :
{
    final SqlNode query;
}
{
    [ <AS> ] query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    { return query; }
}

JAVACODE boolean DuetCreateTableQueryNext() {
    int kind = getToken(1).kind;
    return kind == AS || kind == SELECT || kind == WITH;
}

SqlNode DuetTableElement() :
{
    final SqlNode element;
}
{
    (
        LOOKAHEAD({ DuetForeignKeyNext() }) element = DuetForeignKey()
    |
        LOOKAHEAD(3) element = DuetCheckConstraint()
    |
        LOOKAHEAD(2) element = DuetIndexDefinition()
    |
        element = DuetColumnDefinition()
    )
    { return element; }
}

/** Whether [CONSTRAINT [name]] FOREIGN KEY follows. */
JAVACODE boolean DuetForeignKeyNext() {
    if (getToken(1).kind == FOREIGN) {
        return true;
    }
    return getToken(1).kind == CONSTRAINT && (getToken(2).kind == FOREIGN || getToken(3).kind == FOREIGN);
}

/**
 * [CONSTRAINT [name]] FOREIGN KEY [index] (cols) REFERENCES table (cols) [MATCH FULL|PARTIAL|SIMPLE]
 * [ON DELETE action] [ON UPDATE action].
 */
SqlForeignKey DuetForeignKey() :
{
    final Span s;
    SqlIdentifier name = null;
    final SqlNodeList columns;
    final SqlIdentifier table;
    final SqlNodeList referenced;
    final String[] actions;
}
{
    { s = span(); }
    [ <CONSTRAINT> [ name = SimpleIdentifier() ] ]
    <FOREIGN> <KEY> [ SimpleIdentifier() ]
    columns = DuetIndexColumns()
    <REFERENCES> table = CompoundIdentifier()
    referenced = DuetIndexColumns()
    actions = DuetReferenceOptions()
    { return new SqlForeignKey(s.end(this), name, columns, table, referenced, actions[0], actions[1]); }
}

/** [MATCH FULL|PARTIAL|SIMPLE] [ON DELETE action] [ON UPDATE action], in either order: {onDelete, onUpdate}. */
String[] DuetReferenceOptions() :
{
    final String[] actions = new String[2];
    String action;
}
{
    [ <MATCH> ( <FULL> | <PARTIAL> | <SIMPLE> ) ]
    (
        // ON UPDATE CURRENT_TIMESTAMP after a column's REFERENCES is the column's own option.
        LOOKAHEAD({ getToken(1).kind == ON && (getToken(2).kind == DELETE || getToken(2).kind == UPDATE
            && getToken(3).kind != CURRENT_TIMESTAMP && getToken(3).kind != LOCALTIMESTAMP) })
        <ON>
        (
            <DELETE> action = DuetReferenceAction() { actions[0] = action; }
        |
            <UPDATE> action = DuetReferenceAction() { actions[1] = action; }
        )
    )*
    { return actions; }
}

String DuetReferenceAction() :
{
}
{
    <RESTRICT> { return "RESTRICT"; }
|
    <CASCADE> { return "CASCADE"; }
|
    LOOKAHEAD(2) <SET> <NULL> { return "SET NULL"; }
|
    <SET> <DEFAULT_> { return "SET DEFAULT"; }
|
    <NO> <ACTION> { return "NO ACTION"; }
}

/** [CONSTRAINT [name]] CHECK (condition) [[NOT] ENFORCED], of a table or (without the name) of a column. */
SqlCheckConstraint DuetCheckConstraint() :
{
    final Span s;
    SqlIdentifier name = null;
    final SqlNode condition;
    boolean enforced = true;
    final Token first;
    final Token last;
}
{
    { s = span(); }
    [ <CONSTRAINT> [ name = SimpleIdentifier() ] ]
    <CHECK> <LPAREN> { first = getToken(1); } condition = Expression(ExprContext.ACCEPT_SUB_QUERY) { last = getToken(0); }
    <RPAREN>
    [
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("ENFORCED")
            || getToken(1).kind == NOT && getToken(2).image.equalsIgnoreCase("ENFORCED") })
        [ <NOT> { enforced = false; } ] DuetWordIn("ENFORCED")
    ]
    {
        return new SqlCheckConstraint(s.end(this), name, condition,
            SqlCreateView.text(originalSql, first.beginLine, first.beginColumn, last.endLine, last.endColumn), enforced);
    }
}

/**
 * [CONSTRAINT [name]] PRIMARY KEY (cols) [CLUSTERED|NONCLUSTERED] | UNIQUE [KEY|INDEX] [name] (cols)
 * | {KEY|INDEX} [name] (cols).
 */
SqlIndexDefinition DuetIndexDefinition() :
{
    final Span s;
    SqlIdentifier name = null;
    final SqlIndexDefinition.Kind kind;
    final SqlNodeList columns;
    Boolean clustered = null;
}
{
    { s = span(); }
    [ <CONSTRAINT> [ name = SimpleIdentifier() ] ]
    (
        <PRIMARY> <KEY> { kind = SqlIndexDefinition.Kind.PRIMARY; }
    |
        <UNIQUE> [ <KEY> | <INDEX> ] { kind = SqlIndexDefinition.Kind.UNIQUE; }
        [ name = SimpleIdentifier() ]
    |
        ( <KEY> | <INDEX> ) { kind = SqlIndexDefinition.Kind.INDEX; }
        [ name = SimpleIdentifier() ]
    )
    [ DuetIndexType() ]
    columns = DuetIndexColumns()
    (
        LOOKAHEAD({ DuetIndexOptionNext() })
        (
        <CLUSTERED> { clustered = Boolean.TRUE; }
    |
        <NONCLUSTERED> { clustered = Boolean.FALSE; }
    |
        <COMMENT> StringLiteral()
    |
        DuetIndexType()
    |
        // Index options that do not change what an index holds, accepted as TiDB accepts them.
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("KEY_BLOCK_SIZE") }) DuetSkipWord() [ <EQ> ] UnsignedIntLiteral()
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("VISIBLE") || getToken(1).image.equalsIgnoreCase("INVISIBLE") })
        DuetSkipWord()
        )
    )*
    {
        return new SqlIndexDefinition(s.end(this), kind, name, columns, clustered);
    }
}

/** ( col [(length)] [ASC|DESC], ... ) */
SqlNodeList DuetIndexColumns() :
{
    final Span s;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    SqlIdentifier column;
}
{
    <LPAREN> { s = span(); }
    column = SimpleIdentifier() [ <LPAREN> UnsignedIntLiteral() <RPAREN> ] [ <ASC> | <DESC> ] { columns.add(column); }
    (
        <COMMA> column = SimpleIdentifier() [ <LPAREN> UnsignedIntLiteral() <RPAREN> ] [ <ASC> | <DESC> ]
        { columns.add(column); }
    )*
    <RPAREN>
    { return new SqlNodeList(columns, s.end(this)); }
}

SqlColumnDefinition DuetColumnDefinition() :
{
    final Span s;
    final SqlIdentifier name;
    SqlMySqlType type;
    Boolean nullable = null;
    SqlNode defaultValue = null;
    boolean autoIncrement = false;
    SqlIndexDefinition.Kind key = null;
    String comment = null;
    boolean onUpdateCurrentTimestamp = false;
    Boolean clustered = null;
    final List<SqlCheckConstraint> checks = new ArrayList<SqlCheckConstraint>();
    SqlCheckConstraint check;
    String defaultText = null;
    SqlNode generated = null;
    String generatedText = null;
    boolean stored = false;
    Token first;
    String collationName;
}
{
    name = SimpleIdentifier() { s = span(); }
    type = DuetDataType()
    (
        LOOKAHEAD({ DuetColumnOptionNext() })
        (
        <NOT> <NULL> { nullable = Boolean.FALSE; }
    |
        <NULL> { nullable = Boolean.TRUE; }
    |
        LOOKAHEAD(2) <DEFAULT_> <LPAREN> { first = getToken(1); } defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
        {
            defaultText = SqlCreateView.text(originalSql, first.beginLine, first.beginColumn, getToken(0).endLine,
                getToken(0).endColumn);
        }
        <RPAREN>
    |
        <DEFAULT_> defaultValue = DuetDefaultValue()
    |
        [ <GENERATED> <ALWAYS> ] <AS> <LPAREN> { first = getToken(1); }
        generated = Expression(ExprContext.ACCEPT_SUB_QUERY)
        {
            generatedText = SqlCreateView.text(originalSql, first.beginLine, first.beginColumn, getToken(0).endLine,
                getToken(0).endColumn);
        }
        <RPAREN>
        [
            LOOKAHEAD({ getToken(1).kind == VIRTUAL || getToken(1).kind == STORED
                || getToken(1).image.equalsIgnoreCase("PERSISTENT") })
            (
                <VIRTUAL>
            |
                <STORED> { stored = true; }
            |
                // MariaDB's word for STORED.
                DuetSkipWord() { stored = true; }
            )
        ]
    |
        <AUTO_INCREMENT> { autoIncrement = true; }
    |
        <PRIMARY> <KEY> { key = SqlIndexDefinition.Kind.PRIMARY; }
    |
        <UNIQUE> [ <KEY> ] { key = SqlIndexDefinition.Kind.UNIQUE; }
    |
        <KEY> { key = SqlIndexDefinition.Kind.PRIMARY; }
    |
        <CLUSTERED> { clustered = Boolean.TRUE; }
    |
        <NONCLUSTERED> { clustered = Boolean.FALSE; }
    |
        <COMMENT> { comment = SqlLiteral.unchain(StringLiteral()).getValueAs(String.class); }
    |
        <ON> <UPDATE> ( <CURRENT_TIMESTAMP> | <LOCALTIMESTAMP> ) [ <LPAREN> [ UnsignedIntLiteral() ] <RPAREN> ]
        { onUpdateCurrentTimestamp = true; }
    |
        <COLLATE> collationName = Identifier() { type = type.withCollation(collationName); }
    |
        // A column's REFERENCES clause: MySQL parses it and ignores it.
        <REFERENCES> CompoundIdentifier() [ DuetIndexColumns() ] DuetReferenceOptions()
    |
        // Storage hints of MySQL's NDB and InnoDB, accepted and ignored as TiDB does.
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("COLUMN_FORMAT") }) DuetSkipWord()
        DuetWordIn("FIXED", "DYNAMIC", "DEFAULT")
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("STORAGE") }) DuetSkipWord() DuetWordIn("DISK", "MEMORY", "DEFAULT")
    |
        check = DuetCheckConstraint() { checks.add(check); }
        )
    )*
    {
        return new SqlColumnDefinition(s.end(this), name, type, nullable, defaultValue, defaultText, autoIncrement,
            key, comment, onUpdateCurrentTimestamp, clustered, checks,
            generated == null ? null : new SqlColumnDefinition.Generation(generated, generatedText, stored));
    }
}

SqlNode DuetDefaultValue() :
{
    SqlNode value;
    SqlIdentifier id;
}
{
    (
        value = Literal()
    |
        ( <CURRENT_TIMESTAMP> | <LOCALTIMESTAMP> ) [ <LPAREN> [ UnsignedIntLiteral() ] <RPAREN> ] {
            value = SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(getPos());
        }
    |
        id = SimpleIdentifier() <LPAREN> [ UnsignedIntLiteral() ] <RPAREN> {
            if (!id.getSimple().equalsIgnoreCase("NOW")) {
                throw SqlUtil.newContextException(id.getParserPosition(),
                    RESOURCE.illegalNonQueryExpression());
            }
            value = SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(getPos());
        }
    |
        <LPAREN> value = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN>
    )
    { return value; }
}

/**
 * A MySQL column type: a name (keyword or identifier), an optional (precision [, scale]) or value list,
 * then UNSIGNED / SIGNED / ZEROFILL and an optional character set and collation.
 */
SqlMySqlType DuetDataType() :
{
    final Span s;
    String name;
    int precision = -1;
    int scale = -1;
    boolean unsigned = false;
    String charset = null;
    String collation = null;
    SqlIdentifier id;
    SqlNode element;
    final List<String> elements = new ArrayList<String>();
}
{
    { s = span(); }
    (
        ( <TINYINT> | <SMALLINT> | <INTEGER> | <INT> | <BIGINT> | <DECIMAL> | <DEC> | <NUMERIC> | <FLOAT>
        | <REAL> | <CHAR> | <VARCHAR> | <BINARY> | <VARBINARY> | <DATE> | <TIME> | <TIMESTAMP> | <BOOLEAN>
        | <BLOB> | <DATETIME> | <YEAR> )
        { name = token.image.toUpperCase(Locale.ROOT); }
    |
        ( <MEDIUMINT> | <MEDIUMTEXT> | <MEDIUMBLOB> | <LONGTEXT> | <LONGBLOB> | <TINYTEXT> | <TINYBLOB> )
        { name = token.image.toUpperCase(Locale.ROOT); }
    |
        // MySQL's synonyms, reserved words there.
        <INT1> { name = "TINYINT"; }
    |
        <INT2> { name = "SMALLINT"; }
    |
        ( <INT3> | <MIDDLEINT> ) { name = "MEDIUMINT"; }
    |
        <INT4> { name = "INT"; }
    |
        <INT8> { name = "BIGINT"; }
    |
        <FLOAT4> { name = "FLOAT"; }
    |
        <FLOAT8> { name = "DOUBLE"; }
    |
        <VARCHARACTER> { name = "VARCHAR"; }
    |
        <LONG> { name = "MEDIUMTEXT"; }
        [ <VARBINARY> { name = "MEDIUMBLOB"; } | <VARCHAR> | <CHAR> <VARYING> ]
    |
        <DOUBLE> [ <PRECISION> ] { name = "DOUBLE"; }
    |
        <CHARACTER> [ <VARYING> { name = "VARCHAR"; } ] { name = "CHAR"; }
    |
        <SET> { name = "SET"; }
    |
        id = SimpleIdentifier() { name = id.getSimple().toUpperCase(Locale.ROOT); }
    )
    [
        <LPAREN>
        (
            precision = UnsignedIntLiteral()
            [ <COMMA> scale = UnsignedIntLiteral() ]
        |
            // ENUM and SET: their values.
            element = StringLiteral() { elements.add(SqlLiteral.unchain(element).getValueAs(String.class)); }
            (
                <COMMA> element = StringLiteral() {
                    elements.add(SqlLiteral.unchain(element).getValueAs(String.class));
                }
            )*
        )
        <RPAREN>
    ]
    (
        <UNSIGNED> { unsigned = true; }
    |
        <SIGNED>
    |
        <ZEROFILL> { unsigned = true; }
    )*
    [
        ( <CHARACTER> <SET> | <CHARSET> ) charset = Identifier()
    ]
    [
        LOOKAHEAD(2) <COLLATE> collation = Identifier()
    ]
    {
        return new SqlMySqlType(s.end(this), name, precision, scale, unsigned, charset, collation, elements);
    }
}

/** Table options: [DEFAULT] name [=] value, separated by spaces or commas; kept as name/value pairs. */
SqlNodeList DuetTableOptions() :
{
    final List<SqlNode> tableOptions = new ArrayList<SqlNode>();
    SqlTableOption option;
}
{
    (
        option = DuetTableOption() { tableOptions.add(option); }
        [ <COMMA> ]
    )*
    { return new SqlNodeList(tableOptions, getPos()); }
}

SqlTableOption DuetTableOption() :
{
    final Span s;
    String name;
    String value;
    SqlNode literal;
}
{
    { s = span(); }
    [ <DEFAULT_> ]
    (
        <CHARACTER> <SET> { name = "CHARACTER SET"; }
    |
        <CHARSET> { name = "CHARACTER SET"; }
    |
        <COLLATE> { name = "COLLATE"; }
    |
        <AUTO_INCREMENT> { name = "AUTO_INCREMENT"; }
    |
        <COMMENT> { name = "COMMENT"; }
    |
        <ENGINE> { name = "ENGINE"; }
    |
        name = Identifier() { name = name.toUpperCase(Locale.ROOT); }
    )
    [ <EQ> ]
    (
        literal = Literal() {
            value = literal instanceof SqlLiteral
                ? ((SqlLiteral) literal).toValue()
                : literal.toString();
        }
    |
        value = Identifier()
    |
        <DEFAULT_> { value = "DEFAULT"; }
    )
    {
        return new SqlTableOption(s.end(this), name, value);
    }
}

/** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (cols). */
SqlCreate DuetCreateIndex(Span s, boolean replace) :
{
    boolean unique = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final SqlNodeList columns;
}
{
    [ <UNIQUE> { unique = true; } ]
    <INDEX> ifNotExists = DuetIfNotExists() name = SimpleIdentifier()
    <ON> table = CompoundIdentifier()
    columns = DuetIndexColumns()
    {
        return new SqlCreateIndex(s.end(this), unique, ifNotExists, name, table, columns);
    }
}

SqlDrop DuetDropTable(Span s, boolean replace) :
{
    boolean temporary = false;
    final boolean ifExists;
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    SqlIdentifier table;
}
{
    [ <TEMPORARY> { temporary = true; } ]
    <TABLE> ifExists = DuetIfExists()
    table = CompoundIdentifier() { tables.add(table); }
    ( <COMMA> table = CompoundIdentifier() { tables.add(table); } )*
    [ <RESTRICT> | <CASCADE> ]
    {
        return new SqlDropTable(s.end(this), temporary, ifExists, new SqlNodeList(tables, s.pos()));
    }
}

SqlDrop DuetDropIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
}
{
    <INDEX> ifExists = DuetIfExists() name = SimpleIdentifier() <ON> table = CompoundIdentifier()
    {
        return new SqlDropIndex(s.end(this), ifExists, name, table);
    }
}

SqlTruncate DuetTruncateTable(Span s) :
{
    final SqlIdentifier table;
}
{
    [ <TABLE> ] table = CompoundIdentifier()
    {
        return new SqlTruncateTable(s.end(this), table);
    }
}

/** TRUNCATE [TABLE] name, as a statement of its own (see duet_config.fmpp). */
SqlNode DuetTruncateStatement() :
{
    final Span s;
    final SqlIdentifier table;
}
{
    <TRUNCATE> { s = span(); } [ <TABLE> ] table = CompoundIdentifier()
    {
        return new SqlTruncateTable(s.end(this), table);
    }
}

/** RENAME TABLE a TO b [, c TO d ...]. */
SqlNode DuetRenameTable() :
{
    final Span s;
    final List<SqlNode> from = new ArrayList<SqlNode>();
    final List<SqlNode> to = new ArrayList<SqlNode>();
    SqlIdentifier id;
}
{
    <RENAME> { s = span(); } <TABLE>
    id = CompoundIdentifier() { from.add(id); } <TO> id = CompoundIdentifier() { to.add(id); }
    (
        <COMMA>
        id = CompoundIdentifier() { from.add(id); } <TO> id = CompoundIdentifier() { to.add(id); }
    )*
    {
        return new SqlRenameTable(s.end(this), new SqlNodeList(from, s.pos()), new SqlNodeList(to, s.pos()));
    }
}

/**
 * ALTER {DATABASE | SCHEMA} name SET {TIFLASH | COLUMNAR} REPLICA n: column learner replicas of every table; or
 * ALTER {DATABASE | SCHEMA} name options: the default character set and collation of tables created later.
 */
SqlNode DuetAlterDatabase() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlIdentifier engine;
    final SqlIdentifier replica;
    final int count;
    final SqlNodeList databaseOptions;
}
{
    <ALTER> { s = span(); } ( <DATABASE> | <SCHEMA> ) name = SimpleIdentifier()
    (
        <SET> engine = SimpleIdentifier() replica = SimpleIdentifier() count = UnsignedIntLiteral() {
            if (!(engine.getSimple().equalsIgnoreCase("TIFLASH") || engine.getSimple().equalsIgnoreCase("COLUMNAR"))
                    || !replica.getSimple().equalsIgnoreCase("REPLICA")) {
                throw new ParseException("Encountered \"" + engine.getSimple() + " " + replica.getSimple()
                    + "\": ALTER DATABASE ... SET takes TIFLASH REPLICA n or COLUMNAR REPLICA n");
            }
            return new SqlAlterDatabaseSetReplica(s.end(this), name, count);
        }
    |
        databaseOptions = DuetTableOptions() {
            if (databaseOptions.size() == 0) {
                throw new ParseException("ALTER DATABASE takes SET TIFLASH REPLICA n, CHARACTER SET or COLLATE");
            }
            return new SqlAlterDatabaseOptions(s.end(this), name, databaseOptions);
        }
    )
}

/** ALTER TABLE name action [, action ...]. */
SqlNode DuetAlterTable() :
{
    final Span s;
    final SqlIdentifier table;
    final List<SqlNode> actions = new ArrayList<SqlNode>();
    SqlNode action;
}
{
    <ALTER> { s = span(); } <TABLE> table = CompoundIdentifier()
    action = DuetAlterAction() { DuetSqlCall.addFlattened(actions, action); }
    ( <COMMA> action = DuetAlterAction() { DuetSqlCall.addFlattened(actions, action); } )*
    {
        return new SqlAlterTable(s.end(this), table, new SqlNodeList(actions, s.pos()));
    }
}

SqlNode DuetAlterAction() :
{
    final Span s;
    SqlNode definition;
    final SqlIdentifier name;
    final SqlNodeList tableOptions;
    boolean ifExists = false;
    boolean ifNotExists = false;
    SqlIdentifier after = null;
    boolean first = false;
    SqlIdentifier engine;
    SqlIdentifier replica;
    int count;
    SqlColumnDefinition column;
    SqlIdentifier to;
    SqlNode defaultValue;
    String defaultText = null;
    Token start;
    SqlNodeList columns;
}
{
    { s = span(); }
    (
        // MODIFY is not reserved, so a table option could start with it too; none does.
        LOOKAHEAD(1) <MODIFY> [ <COLUMN> ] column = DuetColumnDefinition()
        [ <FIRST> { first = true; } | <AFTER> after = SimpleIdentifier() ]
        {
            return new SqlAlterTableChangeColumn(s.end(this), column.name(), column, first, after);
        }
    |
        <CHANGE> [ <COLUMN> ] name = SimpleIdentifier() column = DuetColumnDefinition()
        [ <FIRST> { first = true; } | <AFTER> after = SimpleIdentifier() ]
        {
            return new SqlAlterTableChangeColumn(s.end(this), name, column, first, after);
        }
    |
        <ALTER>
        (
            ( <CHECK> | <CONSTRAINT> ) name = SimpleIdentifier() { boolean enforced = true; }
            [ <NOT> { enforced = false; } ] DuetWordIn("ENFORCED") {
                return SqlAlterTableCheck.alter(s.end(this), name, enforced);
            }
        |
            <INDEX> name = SimpleIdentifier() {
                boolean visible = getToken(1).image.equalsIgnoreCase("VISIBLE");
            }
            DuetWordIn("VISIBLE", "INVISIBLE") {
                return new SqlAlterTableIndexVisibility(s.end(this), name, visible);
            }
        |
            [ <COLUMN> ] name = SimpleIdentifier()
            (
                <SET> <DEFAULT_>
                (
                    // DEFAULT (expression), its text kept as a column definition keeps it.
                    LOOKAHEAD(1) <LPAREN> { start = getToken(1); } defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
                    {
                        defaultText = SqlCreateView.text(originalSql, start.beginLine, start.beginColumn,
                            getToken(0).endLine, getToken(0).endColumn);
                    }
                    <RPAREN>
                |
                    defaultValue = DuetDefaultValue()
                )
                {
                    return new SqlAlterTableColumnDefault(s.end(this), name, defaultValue, defaultText);
                }
            |
                <DROP> <DEFAULT_> {
                    return new SqlAlterTableColumnDefault(s.end(this), name, null, null);
                }
            )
        )
    |
        <ADD>
        (
            LOOKAHEAD({ DuetForeignKeyNext() }) definition = DuetForeignKey() {
                return SqlAlterTableForeignKey.add(s.end(this), (SqlForeignKey) definition);
            }
        |
            LOOKAHEAD({ getToken(1).kind == CHECK || getToken(1).kind == CONSTRAINT
                && (getToken(2).kind == CHECK || getToken(3).kind == CHECK) })
            definition = DuetCheckConstraint() {
                return SqlAlterTableCheck.add(s.end(this), (SqlCheckConstraint) definition);
            }
        |
            LOOKAHEAD(3) definition = DuetIndexDefinition() {
                return new SqlAlterTableAddIndex(s.end(this), (SqlIndexDefinition) definition);
            }
        |
            // ADD [COLUMN] (c1 definition, c2 definition, ...): one ADD COLUMN each, in a list the statement flattens.
            LOOKAHEAD([ <COLUMN> ] <LPAREN>) [ <COLUMN> ] <LPAREN> { columns = new SqlNodeList(getPos()); }
            definition = DuetColumnDefinition() {
                columns.add(new SqlAlterTableAddColumn(s.end(this), (SqlColumnDefinition) definition, false, false, null));
            }
            (
                <COMMA> definition = DuetColumnDefinition() {
                    columns.add(new SqlAlterTableAddColumn(s.end(this), (SqlColumnDefinition) definition, false, false,
                        null));
                }
            )*
            <RPAREN> { return columns; }
        |
            [ <COLUMN> ] ifNotExists = DuetIfNotExists() definition = DuetColumnDefinition()
            [ <FIRST> { first = true; } | <AFTER> after = SimpleIdentifier() ]
            {
                return new SqlAlterTableAddColumn(s.end(this), (SqlColumnDefinition) definition, ifNotExists, first,
                    after);
            }
        )
    |
        <DROP>
        (
            ( <INDEX> | <KEY> ) ifExists = DuetIfExists() name = SimpleIdentifier() {
                return new SqlAlterTableDropIndex(s.end(this), name, ifExists);
            }
        |
            <PRIMARY> <KEY> {
                return new SqlAlterTableDropIndex(s.end(this), new SqlIdentifier("PRIMARY", getPos()), false);
            }
        |
            <FOREIGN> <KEY> name = SimpleIdentifier() {
                return SqlAlterTableForeignKey.drop(s.end(this), name);
            }
        |
            ( <CHECK> | <CONSTRAINT> ) name = SimpleIdentifier() {
                return SqlAlterTableCheck.drop(s.end(this), name);
            }
        |
            [ <COLUMN> ] ifExists = DuetIfExists() name = SimpleIdentifier() {
                return new SqlAlterTableDropColumn(s.end(this), name, ifExists);
            }
        )
    |
        <RENAME>
        (
            <COLUMN> name = SimpleIdentifier() <TO> to = SimpleIdentifier() {
                return new SqlAlterTableRenameItem(s.end(this), SqlAlterTableRenameItem.Item.COLUMN, name, to);
            }
        |
            ( <INDEX> | <KEY> ) name = SimpleIdentifier() <TO> to = SimpleIdentifier() {
                return new SqlAlterTableRenameItem(s.end(this), SqlAlterTableRenameItem.Item.INDEX, name, to);
            }
        |
            [ <TO> | <AS> ] name = CompoundIdentifier() {
                return new SqlAlterTableRename(s.end(this), name);
            }
        )
    |
        <SET> engine = SimpleIdentifier() replica = SimpleIdentifier() count = UnsignedIntLiteral() {
            if (!(engine.getSimple().equalsIgnoreCase("TIFLASH") || engine.getSimple().equalsIgnoreCase("COLUMNAR"))
                    || !replica.getSimple().equalsIgnoreCase("REPLICA")) {
                throw new ParseException("Encountered \"" + engine.getSimple() + " " + replica.getSimple()
                    + "\": ALTER TABLE ... SET takes TIFLASH REPLICA n or COLUMNAR REPLICA n");
            }
            return new SqlAlterTableSetReplica(s.end(this), count);
        }
    |
        LOOKAHEAD(2) name = SimpleIdentifier() <KEYS> {
            if (!name.getSimple().equalsIgnoreCase("DISABLE") && !name.getSimple().equalsIgnoreCase("ENABLE")) {
                throw new ParseException("Encountered \"" + name.getSimple() + " KEYS\": expected DISABLE KEYS or ENABLE KEYS");
            }
            return new SqlAlterTableKeys(s.end(this), name.getSimple().equalsIgnoreCase("ENABLE"));
        }
    |
        tableOptions = DuetTableOptions() {
            return new SqlAlterTableOptions(s.end(this), tableOptions);
        }
    )
}

/**
 * INSERT [IGNORE] [INTO] t [(cols)] {VALUES | VALUE} (...), ... | SELECT ... | SET c = e, ...
 * [ON DUPLICATE KEY UPDATE c = e, ...], and REPLACE [INTO] with the same forms.
 */
SqlNode DuetInsert() :
{
    final Span s;
    boolean replace = false;
    boolean ignore = false;
    final SqlIdentifier table;
    SqlNodeList columns = null;
    SqlNode source;
    final List<SqlNode> setColumns = new ArrayList<SqlNode>();
    final List<SqlNode> setValues = new ArrayList<SqlNode>();
    final List<SqlNode> rows = new ArrayList<SqlNode>();
    SqlNodeList onDuplicate = null;
    SqlIdentifier id;
    SqlNode row;
    SqlIdentifier rowAlias = null;
    SqlNodeList rowAliasColumns = null;
}
{
    (
        <INSERT> { s = span(); } [ <LOW_PRIORITY> | <DELAYED> | <HIGH_PRIORITY> ] [ <IGNORE> { ignore = true; } ]
    |
        <REPLACE> { s = span(); replace = true; } [ <LOW_PRIORITY> | <DELAYED> ]
    )
    [ <INTO> ]
    table = CompoundIdentifier()
    (
        <SET>
        id = SimpleIdentifier() <EQ> { setColumns.add(id); } DuetAddValueExpression(setValues)
        (
            <COMMA> id = SimpleIdentifier() <EQ> { setColumns.add(id); } DuetAddValueExpression(setValues)
        )*
        {
            columns = new SqlNodeList(setColumns, s.pos());
            source = SqlStdOperatorTable.VALUES.createCall(s.pos(),
                SqlStdOperatorTable.ROW.createCall(s.pos(), setValues));
        }
        [ <AS> rowAlias = SimpleIdentifier() ]
    |
        [
            LOOKAHEAD(3)
            <LPAREN> { columns = new SqlNodeList(getPos()); }
            [
                id = SimpleIdentifier() { columns.add(id); }
                ( <COMMA> id = SimpleIdentifier() { columns.add(id); } )*
            ]
            <RPAREN>
        ]
        (
            ( <VALUES> | <VALUE> )
            row = DuetInsertRow() { rows.add(row); }
            ( <COMMA> row = DuetInsertRow() { rows.add(row); } )*
            { source = SqlStdOperatorTable.VALUES.createCall(s.pos(), rows); }
            [
                <AS> rowAlias = SimpleIdentifier()
                [
                    <LPAREN> { rowAliasColumns = new SqlNodeList(getPos()); }
                    id = SimpleIdentifier() { rowAliasColumns.add(id); }
                    ( <COMMA> id = SimpleIdentifier() { rowAliasColumns.add(id); } )*
                    <RPAREN>
                ]
            ]
        |
            source = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
        )
    )
    [
        <ON> <DUPLICATE> <KEY> <UPDATE> { onDuplicate = new SqlNodeList(getPos()); }
        DuetAddAssignment(onDuplicate)
        ( <COMMA> DuetAddAssignment(onDuplicate) )*
    ]
    {
        return new SqlMySqlInsert(s.end(this), replace, ignore, table, columns, source, onDuplicate, rowAlias,
            rowAliasColumns);
    }
}

/** A parenthesized row of an INSERT; DEFAULT stands for the column's default. */
SqlNode DuetInsertRow() :
{
    final Span s;
    final List<SqlNode> values = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    [
        DuetAddValueExpression(values)
        ( <COMMA> DuetAddValueExpression(values) )*
    ]
    <RPAREN>
    { return SqlStdOperatorTable.ROW.createCall(s.end(this), values); }
}

void DuetAddValueExpression(List<SqlNode> list) :
{
    final SqlNode e;
}
{
    (
        <DEFAULT_> { list.add(SqlStdOperatorTable.DEFAULT.createCall(getPos())); }
    |
        // A lone literal, as most values of a multi-row INSERT are: the same node the expression grammar builds,
        // without the look-ahead of its many alternatives.
        LOOKAHEAD(
            ( <UNSIGNED_INTEGER_LITERAL> | <DECIMAL_NUMERIC_LITERAL> | <BIG_QUERY_QUOTED_STRING>
            | <BIG_QUERY_DOUBLE_QUOTED_STRING> | <NULL> )
            ( <COMMA> | <RPAREN> )
        )
        (
            e = UnsignedNumericLiteral()
        |
            e = StringLiteral()
        |
            e = SpecialLiteral()
        )
        { list.add(e); }
    |
        e = Expression(ExprContext.ACCEPT_SUB_QUERY) { list.add(e); }
    )
}

/** c = e, as an EQUALS call of the column and the expression. */
void DuetAddAssignment(SqlNodeList list) :
{
    final SqlIdentifier column;
    final List<SqlNode> value = new ArrayList<SqlNode>();
}
{
    column = CompoundIdentifier() <EQ> DuetAddValueExpression(value)
    {
        list.add(SqlStdOperatorTable.EQUALS.createCall(column.getParserPosition(), column, value.get(0)));
    }
}

/**
 * UPDATE t [[AS] alias] SET c = e, ... [WHERE ...] [ORDER BY ...] [LIMIT n], and MySQL's multiple-table UPDATE
 * table_references SET ... [WHERE ...] (whose ORDER BY or LIMIT the executor refuses, as MySQL does).
 */
SqlNode DuetUpdate() :
{
    final Span s;
    final SqlNode from;
    final SqlNodeList assignments;
    SqlNode where = null;
    SqlNodeList orderBy = null;
    SqlNode limit = null;
}
{
    <UPDATE> { s = span(); } [ <LOW_PRIORITY> ] [ <IGNORE> ]
    from = FromClause()
    <SET> { assignments = new SqlNodeList(getPos()); }
    DuetAddAssignment(assignments)
    ( <COMMA> DuetAddAssignment(assignments) )*
    [ where = Where() ]
    [ orderBy = OrderBy(true) ]
    [ <LIMIT> limit = UnsignedNumericLiteralOrParam() ]
    {
        SqlIdentifier table = DuetSqlCall.singleTable(from);
        if (table == null) {
            return new SqlMultiTableUpdate(s.end(this), from, assignments, where, orderBy, limit);
        }
        return new SqlMySqlUpdate(s.end(this), table, DuetSqlCall.singleTableAlias(from), assignments, where,
            orderBy, limit);
    }
}

/**
 * DELETE FROM t [[AS] alias] [WHERE ...] [ORDER BY ...] [LIMIT n], and MySQL's multiple-table forms
 * DELETE t[.*], ... FROM table_references [WHERE ...] and DELETE FROM t[.*], ... USING table_references [WHERE ...].
 */
SqlNode DuetDelete() :
{
    final Span s;
    SqlIdentifier table;
    SqlIdentifier alias = null;
    SqlNode where = null;
    SqlNodeList orderBy = null;
    SqlNode limit = null;
    final List<SqlNode> targets = new ArrayList<SqlNode>();
    SqlNode from;
}
{
    <DELETE> { s = span(); } [ <LOW_PRIORITY> ]
    // Not a JAVACODE word here: the statement is chosen by a syntactic look-ahead, which cannot scan those.
    [ LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("QUICK") }) SimpleIdentifier() ] [ <IGNORE> ]
    (
        <FROM> table = DuetDeleteTarget() { targets.add(table); }
        (
            ( <COMMA> table = DuetDeleteTarget() { targets.add(table); } )*
            <USING> from = FromClause() [ where = Where() ]
            {
                return new SqlMultiTableDelete(s.end(this), new SqlNodeList(targets, s.pos()), from, where);
            }
        |
            [ [ <AS> ] alias = SimpleIdentifier() ]
            [ where = Where() ]
            [ orderBy = OrderBy(true) ]
            [ <LIMIT> limit = UnsignedNumericLiteralOrParam() ]
            {
                return new SqlMySqlDelete(s.end(this), table, alias, where, orderBy, limit);
            }
        )
    |
        table = DuetDeleteTarget() { targets.add(table); }
        ( <COMMA> table = DuetDeleteTarget() { targets.add(table); } )*
        <FROM> from = FromClause() [ where = Where() ]
        {
            return new SqlMultiTableDelete(s.end(this), new SqlNodeList(targets, s.pos()), from, where);
        }
    )
}

/** A table a multiple-table DELETE deletes from: a name, optionally followed by {@code .*}. */
SqlIdentifier DuetDeleteTarget() :
{
    final SqlIdentifier name;
}
{
    name = CompoundIdentifier() [ <DOT> <STAR> ]
    {
        return name.isStar() ? name.skipLast(1) : name;
    }
}

/*
 * FOR before UPDATE or SHARE, as the token manager (MySqlTokenManager) hands it over: never read from text, so that
 * Calcite's FOR SYSTEM_TIME AS OF after a table name does not take a locking clause for its own.
 */
<DEFAULT> TOKEN :
{
    < LOCKING_FOR: "\u0000LOCKING_FOR" >
}

/**
 * A query, optionally followed by MySQL 8.0's locking clause: FOR UPDATE | FOR SHARE [OF t [, t] ...]
 * [NOWAIT | SKIP LOCKED], or LOCK IN SHARE MODE; then optionally INTO @v [, @w ...].
 */
SqlNode DuetQueryWithLocking() :
{
    final SqlNode query;
    SqlQueryWithLocking.Mode mode = null;
    SqlQueryWithLocking.WaitPolicy waitPolicy = SqlQueryWithLocking.WaitPolicy.WAIT;
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    SqlIdentifier table;
    final List<String> variables = new ArrayList<String>();
    SqlNode statement;
}
{
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    [
        <LOCKING_FOR>
        ( <UPDATE> { mode = SqlQueryWithLocking.Mode.FOR_UPDATE; } | <SHARE> { mode = SqlQueryWithLocking.Mode.SHARE; } )
        [
            <OF> table = CompoundIdentifier() { tables.add(table); }
            ( <COMMA> table = CompoundIdentifier() { tables.add(table); } )*
        ]
        [
            <NOWAIT> { waitPolicy = SqlQueryWithLocking.WaitPolicy.NOWAIT; }
        |
            <SKIP_> <LOCKED> { waitPolicy = SqlQueryWithLocking.WaitPolicy.SKIP_LOCKED; }
        ]
    |
        <LOCK> <IN> <SHARE> <MODE> { mode = SqlQueryWithLocking.Mode.SHARE; }
    ]
    {
        statement = mode == null ? query
            : new SqlQueryWithLocking(getPos(), query, mode, waitPolicy, new SqlNodeList(tables, getPos()));
    }
    [
        <INTO> <USER_VARIABLE_REFERENCE> { variables.add(VariableReferences.userVariableName(token.image)); }
        ( <COMMA> <USER_VARIABLE_REFERENCE> { variables.add(VariableReferences.userVariableName(token.image)); } )*
        {
            return new SqlSelectIntoVariables(getPos(), statement, variables);
        }
    ]
    {
        return statement;
    }
}

/**
 * START TRANSACTION [READ ONLY | READ WRITE | WITH CONSISTENT SNAPSHOT] [, ...] [AS OF TIMESTAMP expr]; TiDB's
 * AS OF TIMESTAMP arrives as FOR SYSTEM_TIME AS OF (the token manager's spelling, which table names take too).
 */
SqlNode DuetStartTransaction() :
{
    final Span s;
    boolean readOnly = false;
    SqlNode asOf = null;
}
{
    (
        <BEGIN> { s = span(); } [ <WORK> ]
    |
        <START> { s = span(); } <TRANSACTION>
        [
            readOnly = DuetTransactionCharacteristic(readOnly)
            ( <COMMA> readOnly = DuetTransactionCharacteristic(readOnly) )*
        ]
        [
            <FOR> <SYSTEM_TIME> <AS> <OF> asOf = Expression(ExprContext.ACCEPT_NON_QUERY)
            {
                if (!readOnly) {
                    throw new ParseException("AS OF TIMESTAMP needs START TRANSACTION READ ONLY");
                }
            }
        ]
    )
    {
        return new SqlStartTransaction(s.end(this), readOnly, asOf);
    }
}

/** One characteristic of START TRANSACTION; returns whether the transaction is read-only after it. */
boolean DuetTransactionCharacteristic(boolean readOnly) :
{
    SqlIdentifier consistent;
    SqlIdentifier snapshot;
}
{
    <READ> ( <ONLY> { return true; } | <WRITE> { return false; } )
|
    <WITH> consistent = SimpleIdentifier() snapshot = SimpleIdentifier()
    {
        if (!consistent.getSimple().equalsIgnoreCase("CONSISTENT") || !snapshot.getSimple().equalsIgnoreCase("SNAPSHOT")) {
            throw new ParseException("expected WITH CONSISTENT SNAPSHOT at line "
                + consistent.getParserPosition().getLineNum() + ", column "
                + consistent.getParserPosition().getColumnNum());
        }
        return readOnly;
    }
}

/** EXPLAIN [ANALYZE] [FORMAT = name] query, also spelled DESCRIBE or DESC; the query may have a locking clause. */
SqlNode DuetExplain() :
{
    final Span s;
    boolean analyze = false;
    final SqlNode query;
    final SqlIdentifier table;
    SqlNode column = null;
}
{
    ( <EXPLAIN> | <DESCRIBE> | <DESC> ) { s = span(); }
    (
        // DESCRIBE t [column]: SHOW COLUMNS FROM t [LIKE 'column'].
        LOOKAHEAD(CompoundIdentifier() ( <EOF> | <SEMICOLON> | SimpleIdentifier() | <QUOTED_STRING> ))
        table = CompoundIdentifier()
        [ column = StringLiteral() | column = SimpleIdentifier() {
            column = SqlLiteral.createCharString(((SqlIdentifier) column).getSimple(), getPos());
        } ]
        {
            return new SqlShow(s.end(this), SqlShow.Kind.COLUMNS, false, SqlShow.Scope.SESSION, table, null, column,
                    null, false);
        }
    |
        [ <ANALYZE> { analyze = true; } ]
        [ <FORMAT> <EQ> ( Identifier() | StringLiteral() | <ROW> ) ]
        query = DuetQueryWithLocking()
        {
            if (!(query instanceof SqlQueryWithLocking) && !query.getKind().belongsTo(SqlKind.QUERY)) {
                throw SqlUtil.newContextException(query.getParserPosition(), RESOURCE.illegalNonQueryExpression());
            }
            return new SqlExplainQuery(s.end(this), query, analyze);
        }
    )
}

/** VALUES(column) in ON DUPLICATE KEY UPDATE: the value the INSERT would have written to the column. */
SqlNode DuetInsertValueFunction() :
{
    final Span s;
    final SqlIdentifier column;
}
{
    <VALUES> { s = span(); } <LPAREN> column = SimpleIdentifier() <RPAREN>
    {
        return SqlInsertValue.OPERATOR.createCall(s.end(this), column);
    }
}

/** MySQL's CURRENT_USER(): CURRENT_USER with parentheses, which Calcite reads only without. */
SqlNode DuetCurrentUserFunction() :
{
    final Span s;
}
{
    <CURRENT_USER> { s = span(); } <LPAREN> <RPAREN>
    {
        return SqlStdOperatorTable.CURRENT_USER.createCall(s.end(this));
    }
}

/** MySQL's integer division {@code a DIV b}, with the precedence of "/". */
void DuetIntegerDivide(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <DIV> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(io.duetdb.sql.parser.MySqlOperators.INTEGER_DIVIDE, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/** MySQL's NULL-safe equality {@code a <=> b}: IS NOT DISTINCT FROM, with the precedence of "=". */
void DuetNullSafeEqual(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <NULL_SAFE_EQUAL> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/**
 * MySQL's CAST and CONVERT target types Calcite lacks: SIGNED [INTEGER], UNSIGNED [INTEGER] (BIGINT and BIGINT
 * UNSIGNED), DATETIME[(fsp)] (a TIMESTAMP without time zone) and JSON.
 */
SqlTypeNameSpec DuetCastTypeName() :
{
    final Span s;
    int precision = -1;
}
{
    (
        <SIGNED> { s = span(); } [ <INTEGER> | <INT> ] {
            return new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, s.end(this));
        }
    |
        <UNSIGNED> { s = span(); } [ <INTEGER> | <INT> ] {
            return new SqlBasicTypeNameSpec(SqlTypeName.UBIGINT, s.end(this));
        }
    |
        <DATETIME> { s = span(); } [ <LPAREN> precision = UnsignedIntLiteral() <RPAREN> ] {
            return new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, precision, s.end(this));
        }
    |
        // CAST(x AS JSON): the planner makes it a call of CAST_AS_JSON (MySqlFunctionRewrites).
        <JSON> { s = span(); } {
            return new JsonTypeNameSpec(s.end(this));
        }
    )
}

/**
 * MySQL's CONVERT(expression, type), a CAST, and CONVERT(expression USING charset), the expression as a string
 * (a binary string for the binary character set). Listed among the literals so that it comes before Calcite's
 * own CONVERT, whose forms are other dialects'.
 */
SqlNode DuetConvertCall() :
{
    final Span s;
    final SqlNode value;
    final SqlIdentifier charset;
    final SqlDataTypeSpec type;
}
{
    <CONVERT> { s = span(); } <LPAREN> value = Expression(ExprContext.ACCEPT_SUB_QUERY)
    (
        <USING> charset = SimpleIdentifier() <RPAREN> {
            SqlTypeName target = charset.getSimple().equalsIgnoreCase("binary") ? SqlTypeName.VARBINARY
                : SqlTypeName.VARCHAR;
            return SqlStdOperatorTable.CAST.createCall(s.end(this), value,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(target, charset.getParserPosition()),
                    charset.getParserPosition()));
        }
    |
        <COMMA> type = DataType() <RPAREN> {
            return SqlStdOperatorTable.CAST.createCall(s.end(this), value, type);
        }
    )
}

/** MySQL's {@code a XOR b}, between AND and OR in precedence. */
void DuetLogicalXor(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <XOR> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(io.duetdb.sql.parser.MySqlOperators.XOR, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/** MySQL's {@code @name := value}: the planner makes it a call that sets the variable. */
void DuetAssignVariable(List<Object> list, ExprContext exprContext, Span s) :
{
}
{
    <ASSIGN_VARIABLE> {
        checkNonQueryExpression(exprContext);
        list.add(new SqlParserUtil.ToTreeListItem(io.duetdb.sql.parser.MySqlOperators.ASSIGN, getPos()));
    }
    AddExpression2b(list, ExprContext.ACCEPT_SUB_QUERY)
}

/**
 * MySQL's {@code doc->'path'} (JSON_EXTRACT) and {@code doc->>'path'} (JSON_UNQUOTE of it), which bind tighter
 * than any operator: the operand just read becomes the function's first argument.
 */
void DuetJsonPathOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    final boolean unquote;
    final SqlNode path;
}
{
    ( <JSON_EXTRACT_ARROW> { unquote = false; } | <JSON_UNQUOTE_ARROW> { unquote = true; } )
    path = StringLiteral() {
        checkNonQueryExpression(exprContext);
        SqlNode document = (SqlNode) list.remove(list.size() - 1);
        SqlParserPos pos = document.getParserPosition().plus(getPos());
        SqlNode call = createCall(new SqlIdentifier("JSON_EXTRACT", pos), pos,
            SqlFunctionCategory.USER_DEFINED_FUNCTION, null, List.of(document, path));
        if (unquote) {
            call = createCall(new SqlIdentifier("JSON_UNQUOTE", pos), pos,
                SqlFunctionCategory.USER_DEFINED_FUNCTION, null, List.of(call));
        }
        list.add(call);
    }
}

/**
 * MySQL's {@code text COLLATE name}, which binds tighter than any operator: the operand just read becomes the first
 * argument of DUET_COLLATE, the name (an identifier or a string) its second.
 */
void DuetCollateOperator(List<Object> list, ExprContext exprContext, Span s) :
{
    String name;
    SqlNode literal;
}
{
    <COLLATE>
    (
        name = Identifier()
    |
        literal = StringLiteral() { name = SqlLiteral.unchain(literal).getValueAs(String.class); }
    )
    {
        checkNonQueryExpression(exprContext);
        SqlNode text = (SqlNode) list.remove(list.size() - 1);
        SqlParserPos pos = text.getParserPosition().plus(getPos());
        list.add(createCall(new SqlIdentifier("DUET_COLLATE", pos), pos, SqlFunctionCategory.USER_DEFINED_FUNCTION,
            null, List.of(text, SqlLiteral.createCharString(name, pos))));
    }
}

/** MySQL's SESSION_USER() and SYSTEM_USER(): USER(), the session's user and host. */
SqlNode DuetSessionUserFunction() :
{
    final Span s;
}
{
    ( <SESSION_USER> | <SYSTEM_USER> ) { s = span(); } <LPAREN> <RPAREN>
    {
        return new org.apache.calcite.sql.SqlUnresolvedFunction(new SqlIdentifier("USER", s.pos()), null, null,
            null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(s.end(this));
    }
}

/**
 * A MySQL function whose name MySQL reserves, so that it is a keyword here too: IF(...), REPLACE(...),
 * REPEAT(...), INSERT(...), DATABASE(), SCHEMA(), UTC_DATE() and its kin. The call is the one a function of that
 * name written as an identifier makes.
 */
SqlNode DuetReservedWordFunctionCall() :
{
    final Span s;
    final SqlIdentifier name;
    final List<SqlNode> args;
}
{
    (
        <IF> | <REPLACE> | <REPEAT> | <INSERT> | <DATABASE> | <SCHEMA> | <UTC_DATE> | <UTC_TIME> | <UTC_TIMESTAMP>
    )
    { s = span(); name = new SqlIdentifier(unquotedIdentifier(), getPos()); }
    (
        LOOKAHEAD(2) <LPAREN> <RPAREN> { args = new ArrayList<SqlNode>(); }
    |
        args = FunctionParameterList(ExprContext.ACCEPT_SUB_QUERY) { args.remove(0); }
    )
    {
        return createCall(name, s.end(this), SqlFunctionCategory.USER_DEFINED_FUNCTION, null, args);
    }
}

/*
 * MySQL's variable references, one token each as MySQL reads them: @name (the name also quoted: @`a b`, @'a b',
 * @"a b") and @@[scope.]name. 'user'@host and 'user'@'host' read as a string and a user variable's token; an @ alone
 * is the one of 'user' @ 'host'.
 */
<DEFAULT, DQID, BTID, BQID, BQHID> TOKEN :
{
    < AT_SIGN: "@" >
|
    < SYSTEM_VARIABLE_REFERENCE: "@@" (["a"-"z", "A"-"Z", "0"-"9", "_"])+ ( "." (["a"-"z", "A"-"Z", "0"-"9", "_"])+ )? >
|
    < USER_VARIABLE_REFERENCE: "@"
        (
            (["a"-"z", "A"-"Z", "0"-"9", "_", "$", "."])+
        |   "`" (~["`", "\n"])+ "`"
        |   "'" (~["'", "\n"])+ "'"
        |   "\"" (~["\"", "\n"])+ "\""
        ) >
}

/** MySQL's variables in expressions: @name and @@[GLOBAL. | SESSION. | LOCAL.]name (see VariableReferences). */
SqlNode DuetVariableReference() :
{
}
{
    <USER_VARIABLE_REFERENCE> {
        return VariableReferences.user(token.image, getPos(), MySqlTokenManager.variableTypesOf(token_source));
    }
|
    <SYSTEM_VARIABLE_REFERENCE> {
        return VariableReferences.system(token.image, getPos(), MySqlTokenManager.variableTypesOf(token_source));
    }
}

/**
 * SET PASSWORD [FOR user] = 'password', SET [GLOBAL | SESSION] TRANSACTION characteristic [, ...], or SET of
 * variables, NAMES and CHARACTER SET (see SqlSetVariables).
 */
SqlNode DuetSet() :
{
    final Span s;
    SqlSetTransaction.Scope transactionScope = SqlSetTransaction.Scope.NEXT_TRANSACTION;
    SqlSetTransaction.Isolation isolation = null;
    Boolean readOnly = null;
    Object characteristic;
    final List<SqlSetVariables.Assignment> assignments = new ArrayList<SqlSetVariables.Assignment>();
    SqlSetVariables.Scope scope = SqlSetVariables.Scope.SESSION;
    SqlSetVariables.Assignment assignment;
    AccountName account = null;
    SqlNode password;
}
{
    <SET> { s = span(); }
    (
        LOOKAHEAD({ getToken(1).kind == PASSWORD && (getToken(2).kind == EQ || getToken(2).kind == FOR) })
        <PASSWORD> [ <FOR> account = DuetAccount() ] <EQ>
        ( password = StringLiteral() | <PASSWORD> <LPAREN> password = StringLiteral() <RPAREN> )
        {
            return new SqlSetPassword(s.end(this), account, SqlLiteral.unchain(password).getValueAs(String.class));
        }
    |
        LOOKAHEAD({ getToken(1).kind == TRANSACTION
            || (getToken(1).kind == GLOBAL || getToken(1).kind == SESSION) && getToken(2).kind == TRANSACTION })
        [
            <GLOBAL> { transactionScope = SqlSetTransaction.Scope.GLOBAL; }
        |
            <SESSION> { transactionScope = SqlSetTransaction.Scope.SESSION; }
        ]
        <TRANSACTION>
        characteristic = DuetSetTransactionCharacteristic()
        {
            if (characteristic instanceof Boolean) {
                readOnly = (Boolean) characteristic;
            } else {
                isolation = (SqlSetTransaction.Isolation) characteristic;
            }
        }
        (
            <COMMA> characteristic = DuetSetTransactionCharacteristic()
            {
                if (characteristic instanceof Boolean) {
                    readOnly = (Boolean) characteristic;
                } else {
                    isolation = (SqlSetTransaction.Isolation) characteristic;
                }
            }
        )*
        {
            return new SqlSetTransaction(s.end(this), transactionScope, isolation, readOnly);
        }
    |
        [ LOOKAHEAD({ isSetScope(getToken(1), getToken(2)) }) scope = DuetSetScope() ]
        assignment = DuetSetAssignment(scope) { assignments.add(assignment); }
        (
            <COMMA>
            [ LOOKAHEAD({ isSetScope(getToken(1), getToken(2)) }) scope = DuetSetScope() ]
            assignment = DuetSetAssignment(scope) { assignments.add(assignment); }
        )*
        {
            return new SqlSetVariables(s.end(this), assignments);
        }
    )
}

/** Whether {@code first} is a scope keyword of SET: one followed by the name it scopes, not by = (a name itself). */
JAVACODE boolean isSetScope(Token first, Token second) {
    boolean keyword = first.kind == GLOBAL || first.kind == SESSION || first.kind == LOCAL
        || first.image.equalsIgnoreCase("PERSIST") || first.image.equalsIgnoreCase("PERSIST_ONLY");
    return keyword && second.kind != EQ && second.kind != ASSIGN_VARIABLE && second.kind != TRANSACTION;
}

SqlSetVariables.Scope DuetSetScope() :
{
    final SqlIdentifier name;
}
{
    // The keywords are names too; as scopes they come first.
    LOOKAHEAD(1) <GLOBAL> { return SqlSetVariables.Scope.GLOBAL; }
|
    LOOKAHEAD(1) <SESSION> { return SqlSetVariables.Scope.SESSION; }
|
    LOOKAHEAD(1) <LOCAL> { return SqlSetVariables.Scope.SESSION; }
|
    name = SimpleIdentifier()
    {
        return name.getSimple().equalsIgnoreCase("PERSIST") ? SqlSetVariables.Scope.PERSIST
            : SqlSetVariables.Scope.PERSIST_ONLY;
    }
}

/** One assignment of SET; {@code scope} is where a system variable named without a scope of its own is set. */
SqlSetVariables.Assignment DuetSetAssignment(SqlSetVariables.Scope scope) :
{
    final SqlNode value;
    final SqlIdentifier name;
    String charset = null;
    String collation = null;
    VariableReferences.SystemVariableName variable;
    String user;
}
{
    <USER_VARIABLE_REFERENCE> { user = VariableReferences.userVariableName(token.image); }
    ( <EQ> | <ASSIGN_VARIABLE> ) value = Expression(ExprContext.ACCEPT_SUB_QUERY)
    {
        return new SqlSetVariables.UserVariable(user, value);
    }
|
    <SYSTEM_VARIABLE_REFERENCE> { variable = VariableReferences.systemVariableName(token.image); }
    ( <EQ> | <ASSIGN_VARIABLE> ) value = DuetSetValue()
    {
        return new SqlSetVariables.SystemVariable(variable.scope().equals("global") ? SqlSetVariables.Scope.GLOBAL
            : SqlSetVariables.Scope.SESSION, variable.name(), value);
    }
|
    LOOKAHEAD({ getToken(1).kind == NAMES && getToken(2).kind != EQ })
    <NAMES> ( <DEFAULT_> | charset = DuetCharacterSetName() )
    [ <COLLATE> ( <DEFAULT_> | collation = DuetCharacterSetName() ) ]
    {
        return new SqlSetVariables.CharacterSet(true, charset, collation);
    }
|
    LOOKAHEAD({ getToken(1).kind == CHARACTER && getToken(2).kind == SET
        || getToken(1).kind == CHARSET && getToken(2).kind != EQ })
    ( <CHARACTER> <SET> | <CHARSET> ) ( <DEFAULT_> | charset = DuetCharacterSetName() )
    {
        return new SqlSetVariables.CharacterSet(false, charset, null);
    }
|
    name = CompoundIdentifier() ( <EQ> | <ASSIGN_VARIABLE> ) value = DuetSetValue()
    {
        return new SqlSetVariables.SystemVariable(scope, String.join(".", name.names), value);
    }
}

/**
 * A system variable's value in SET: DEFAULT (null), ON, or an expression; a name is its own text, and so is a number
 * alone, as written (1e9 stays 1e9).
 */
SqlNode DuetSetValue() :
{
    final SqlNode value;
}
{
    <DEFAULT_> { return null; }
|
    <ON> { return new SqlIdentifier("ON", getPos()); }
|
    LOOKAHEAD({ (getToken(1).kind == UNSIGNED_INTEGER_LITERAL || getToken(1).kind == DECIMAL_NUMERIC_LITERAL
        || getToken(1).kind == APPROX_NUMERIC_LITERAL) && (getToken(2).kind == COMMA || getToken(2).kind == EOF) })
    ( <UNSIGNED_INTEGER_LITERAL> | <DECIMAL_NUMERIC_LITERAL> | <APPROX_NUMERIC_LITERAL> )
    {
        return SqlLiteral.createCharString(token.image, getPos());
    }
|
    LOOKAHEAD({ getToken(1).kind == BINARY && (getToken(2).kind == COMMA || getToken(2).kind == EOF) })
    <BINARY> { return new SqlIdentifier("binary", getPos()); }
|
    value = Expression(ExprContext.ACCEPT_SUB_QUERY) { return value; }
}

/** A character set or collation name: a name, a string, or BINARY. */
String DuetCharacterSetName() :
{
    final SqlIdentifier name;
    final SqlNode literal;
}
{
    <BINARY> { return "binary"; }
|
    literal = StringLiteral() { return SqlLiteral.unchain(literal).getValueAs(String.class); }
|
    name = SimpleIdentifier() { return name.getSimple(); }
}

/** ISOLATION LEVEL level (a SqlSetTransaction.Isolation) or READ ONLY / READ WRITE (a Boolean: read-only). */
Object DuetSetTransactionCharacteristic() :
{
}
{
    <ISOLATION> <LEVEL>
    (
        <READ>
        (
            <UNCOMMITTED> { return SqlSetTransaction.Isolation.READ_UNCOMMITTED; }
        |
            <COMMITTED> { return SqlSetTransaction.Isolation.READ_COMMITTED; }
        )
    |
        <REPEATABLE> <READ> { return SqlSetTransaction.Isolation.REPEATABLE_READ; }
    |
        <SERIALIZABLE> { return SqlSetTransaction.Isolation.SERIALIZABLE; }
    )
|
    <READ> ( <ONLY> { return Boolean.TRUE; } | <WRITE> { return Boolean.FALSE; } )
}

/** CREATE [OR REPLACE] [view options] VIEW ...; see DuetViewDefinition. */
SqlCreate DuetCreateView(Span s, boolean replace) :
{
    final SqlCreateView.Options viewOptions;
    final SqlCreate create;
}
{
    viewOptions = DuetViewOptions()
    (
        // DEFINER = account opens CREATE TRIGGER, PROCEDURE, FUNCTION and EVENT too: objects DuetDB lacks.
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("PROCEDURE") || getToken(1).image.equalsIgnoreCase("FUNCTION")
            || getToken(1).image.equalsIgnoreCase("TRIGGER") || getToken(1).image.equalsIgnoreCase("EVENT") })
        create = DuetCreateUnsupported(s)
    |
        create = DuetViewDefinition(s, replace, false, viewOptions)
    )
    {
        return create;
    }
}

/** ALTER [view options] VIEW ...: as CREATE OR REPLACE, of a view that exists. */
SqlNode DuetAlterView() :
{
    final Span s;
    final SqlCreateView.Options viewOptions;
    final SqlCreateView alter;
}
{
    <ALTER> { s = span(); } viewOptions = DuetViewOptions() alter = DuetViewDefinition(s, true, true, viewOptions)
    {
        return alter;
    }
}

/** [ALGORITHM = {UNDEFINED | MERGE | TEMPTABLE}] [DEFINER = user] [SQL SECURITY {DEFINER | INVOKER}]. */
SqlCreateView.Options DuetViewOptions() :
{
    String algorithm = null;
    String definer = null;
    String security = null;
}
{
    [ <ALGORITHM> <EQ> ( <UNDEFINED> | <MERGE> | <TEMPTABLE> ) { algorithm = token.image.toUpperCase(Locale.ROOT); } ]
    [ <DEFINER> <EQ> definer = DuetAccountName() ]
    [ <SQL> <SECURITY> ( <DEFINER> | <INVOKER> ) { security = token.image.toUpperCase(Locale.ROOT); } ]
    {
        return new SqlCreateView.Options(algorithm, definer, security);
    }
}

/** VIEW name [(column, ...)] AS query [WITH [CASCADED | LOCAL] CHECK OPTION]. */
SqlCreateView DuetViewDefinition(Span s, boolean replace, boolean alter, SqlCreateView.Options viewOptions) :
{
    final SqlIdentifier name;
    SqlNodeList columns = null;
    final Token first;
    final SqlNode query;
    final Token last;
    String checkOption = null;
}
{
    <VIEW> name = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> { first = getToken(1); }
    query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) { last = getToken(0); }
    [
        <WITH> { checkOption = "CASCADED"; }
        [ <CASCADED> | <LOCAL> { checkOption = "LOCAL"; } ]
        <CHECK> <OPTION>
    ]
    {
        if (!query.getKind().belongsTo(SqlKind.QUERY)) {
            throw SqlUtil.newContextException(query.getParserPosition(), RESOURCE.illegalNonQueryExpression());
        }
        return new SqlCreateView(s.end(this), replace, alter, name, columns, query,
            SqlCreateView.text(originalSql, first.beginLine, first.beginColumn, last.endLine, last.endColumn),
            viewOptions, checkOption);
    }
}

/** An account: user[@host] (names or strings) or CURRENT_USER[()]; as user@host, or CURRENT_USER. */
String DuetAccountName() :
{
    final String user;
    String host = null;
}
{
    (
        <CURRENT_USER> [ LOOKAHEAD(2) <LPAREN> <RPAREN> ] { return "CURRENT_USER"; }
    |
        user = DuetAccountPart()
        [ <AT_SIGN> host = DuetAccountPart() | <USER_VARIABLE_REFERENCE> { host = VariableReferences.accountHost(token.image); } ]
        {
            return host == null ? user + "@%" : user + "@" + host;
        }
    )
}

String DuetAccountPart() :
{
    final String name;
    final SqlNode literal;
}
{
    (
        name = Identifier() { return name; }
    |
        literal = StringLiteral() { return SqlLiteral.unchain(literal).getValueAs(String.class); }
    )
}

/** An account: user[@host], each a name or a string; the host % when not given. */
AccountName DuetAccount() :
{
    final String user;
    String host = "%";
}
{
    user = DuetAccountPart()
    [ <AT_SIGN> host = DuetAccountPart() | <USER_VARIABLE_REFERENCE> { host = VariableReferences.accountHost(token.image); } ]
    {
        return new AccountName(user, host);
    }
}

/** An account, or CURRENT_USER[()] (null): the session's own. */
AccountName DuetAccountOrCurrentUser() :
{
    final AccountName account;
}
{
    <CURRENT_USER> [ LOOKAHEAD(2) <LPAREN> <RPAREN> ] { return null; }
|
    account = DuetAccount() { return account; }
}

/** IDENTIFIED [WITH plugin] [BY 'password'] | IDENTIFIED BY 'password', of {@code account}. */
UserSpecification DuetIdentified(AccountName account) :
{
    String plugin = null;
    SqlNode password = null;
}
{
    <IDENTIFIED>
    (
        <WITH> plugin = DuetAccountPart() [ <BY> password = StringLiteral() ]
    |
        <BY> password = StringLiteral()
    )
    {
        return new UserSpecification(account, plugin,
            password == null ? "" : SqlLiteral.unchain(password).getValueAs(String.class));
    }
}

/** user [IDENTIFIED ...]. */
UserSpecification DuetUserSpecification() :
{
    final AccountName account;
    UserSpecification user = null;
}
{
    account = DuetAccount() [ user = DuetIdentified(account) ]
    {
        return user != null ? user : new UserSpecification(account, null, "");
    }
}

/** CREATE USER [IF NOT EXISTS] user [IDENTIFIED ...] [, ...]. */
SqlNode DuetCreateUser() :
{
    final Span s;
    boolean ifNotExists = false;
    final List<UserSpecification> users = new ArrayList<UserSpecification>();
    UserSpecification user;
}
{
    <CREATE> { s = span(); } <USER>
    [ <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
    user = DuetUserSpecification() { users.add(user); }
    ( <COMMA> user = DuetUserSpecification() { users.add(user); } )*
    {
        return new SqlCreateUser(s.end(this), ifNotExists, users);
    }
}

/** DROP USER [IF EXISTS] user [, ...]. */
SqlNode DuetDropUser() :
{
    final Span s;
    boolean ifExists = false;
    final List<AccountName> accounts = new ArrayList<AccountName>();
    AccountName account;
}
{
    <DROP> { s = span(); } <USER>
    [ <IF> <EXISTS> { ifExists = true; } ]
    account = DuetAccount() { accounts.add(account); }
    ( <COMMA> account = DuetAccount() { accounts.add(account); } )*
    {
        return new SqlDropUser(s.end(this), ifExists, accounts);
    }
}

/** ALTER USER [IF EXISTS] user IDENTIFIED ... (a new password, and maybe a new plugin). */
SqlNode DuetAlterUser() :
{
    final Span s;
    final AccountName account;
    final UserSpecification user;
}
{
    <ALTER> { s = span(); } <USER> [ <IF> <EXISTS> ]
    account = DuetAccount() user = DuetIdentified(account)
    {
        return new SqlAlterUser(s.end(this), user);
    }
}

/** GRANT privilege [, ...] ON level TO user [WITH GRANT OPTION]. */
SqlNode DuetGrant() :
{
    final Span s;
    final List<String> privileges;
    final String level;
    final AccountName account;
    boolean withGrantOption = false;
}
{
    <GRANT> { s = span(); } privileges = DuetPrivileges() <ON> level = DuetPrivilegeLevel()
    <TO> account = DuetAccount() [ <WITH> <GRANT> <OPTION> { withGrantOption = true; } ]
    {
        return new SqlGrant(s.end(this), true, privileges, level, account, withGrantOption);
    }
}

/** REVOKE privilege [, ...] ON level FROM user. */
SqlNode DuetRevoke() :
{
    final Span s;
    final List<String> privileges;
    final String level;
    final AccountName account;
}
{
    <REVOKE> { s = span(); } privileges = DuetPrivileges() <ON> level = DuetPrivilegeLevel()
    <FROM> account = DuetAccount()
    {
        return new SqlGrant(s.end(this), false, privileges, level, account, false);
    }
}

/**
 * The privileges of GRANT and REVOKE before ON, each its words in upper case (SELECT, CREATE USER, ALL PRIVILEGES,
 * GRANT OPTION, ...): their names are MySQL's many words, keywords or not, which Privilege.parse knows.
 */
JAVACODE List<String> DuetPrivileges() {
    List<String> privileges = new ArrayList<String>();
    StringBuilder words = new StringBuilder();
    while (true) {
        Token next = getToken(1);
        if (next.kind == EOF || (next.kind == ON || next.kind == COMMA) && words.length() == 0) {
            throw generateParseException();
        }
        if (next.kind == ON || next.kind == COMMA) {
            privileges.add(words.toString());
            words.setLength(0);
            if (next.kind == ON) {
                return privileges;
            }
        } else {
            words.append(words.length() == 0 ? "" : " ").append(next.image.toUpperCase(java.util.Locale.ROOT));
        }
        getNextToken();
    }
}

/** The level of GRANT and REVOKE: [TABLE] *, *.*, db.*, db.table or table. */
String DuetPrivilegeLevel() :
{
    final String first;
    String second = null;
}
{
    [ <TABLE> ]
    ( <STAR> { first = "*"; } | first = Identifier() )
    [ <DOT> ( <STAR> { second = "*"; } | second = Identifier() ) ]
    {
        return second == null ? first : first + "." + second;
    }
}

/** FLUSH [NO_WRITE_TO_BINLOG | LOCAL] PRIVILEGES. */
SqlNode DuetFlushPrivileges() :
{
    final Span s;
}
{
    <FLUSH> { s = span(); } [ <NO_WRITE_TO_BINLOG> | <LOCAL> ] <PRIVILEGES>
    {
        return new SqlFlushPrivileges(s.end(this));
    }
}

/** DROP VIEW [IF EXISTS] v [, v ...] [RESTRICT | CASCADE]. */
SqlDrop DuetDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final List<SqlNode> views = new ArrayList<SqlNode>();
    SqlIdentifier view;
}
{
    <VIEW> ifExists = DuetIfExists()
    view = CompoundIdentifier() { views.add(view); }
    ( <COMMA> view = CompoundIdentifier() { views.add(view); } )*
    [ <RESTRICT> | <CASCADE> ]
    {
        return new SqlDropView(s.end(this), ifExists, new SqlNodeList(views, s.pos()));
    }
}

/** TiDB's ADMIN CHECKSUM TABLE t [, t ...] and ADMIN SHOW DDL JOBS [n]. */
SqlNode DuetAdmin() :
{
    final Span s;
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    final SqlIdentifier word;
    SqlIdentifier table;
    SqlLiteral limit = null;
}
{
    <ADMIN> { s = span(); }
    (
        <SHOW> DuetShowWord("DDL") DuetShowWord("JOBS") [ limit = UnsignedNumericLiteral() ]
        {
            return new SqlAdminShowDdlJobs(s.end(this), limit == null ? SqlAdminShowDdlJobs.DEFAULT_JOBS
                : (int) Math.min(Integer.MAX_VALUE, limit.longValue(true)));
        }
    |
        word = SimpleIdentifier() {
            if (!word.getSimple().equalsIgnoreCase("CHECKSUM")) {
                throw new ParseException("Encountered \"" + word.getSimple() + "\": ADMIN takes CHECKSUM TABLE"
                    + " or SHOW DDL JOBS here");
            }
        }
        <TABLE> table = CompoundIdentifier() { tables.add(table); }
        ( <COMMA> table = CompoundIdentifier() { tables.add(table); } )*
        {
            return new SqlAdminChecksumTable(s.end(this), new SqlNodeList(tables, s.pos()));
        }
    )
}

/** PREPARE name FROM {'statement' | @variable} (MySQL's SQL-level prepared statements). */
SqlNode DuetPrepare() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlNode source;
}
{
    <PREPARE> { s = span(); } name = SimpleIdentifier() <FROM> source = Expression(ExprContext.ACCEPT_NON_QUERY) {
        return new SqlPrepare(s.end(this), name, source);
    }
}

/** EXECUTE name [USING @variable, ...]. */
SqlNode DuetExecute() :
{
    final Span s;
    final SqlIdentifier name;
    final List<SqlNode> arguments = new ArrayList<SqlNode>();
    SqlNode argument;
}
{
    <EXECUTE> { s = span(); } name = SimpleIdentifier()
    [
        <USING> argument = Expression(ExprContext.ACCEPT_NON_QUERY) { arguments.add(argument); }
        ( <COMMA> argument = Expression(ExprContext.ACCEPT_NON_QUERY) { arguments.add(argument); } )*
    ]
    {
        return new SqlExecute(s.end(this), name, new SqlNodeList(arguments, s.pos()));
    }
}

/** {DEALLOCATE | DROP} PREPARE name. */
SqlNode DuetDeallocatePrepare() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    ( <DEALLOCATE> { s = span(); } | <DROP> { s = span(); } ) <PREPARE> name = SimpleIdentifier() {
        return new SqlDeallocatePrepare(s.end(this), name);
    }
}

/**
 * LOCK TABLES t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE} [, ...] and UNLOCK TABLES (MySQL's; TABLE is
 * accepted for TABLES, as MySQL does).
 */
SqlNode DuetLockTables() :
{
    final Span s;
    boolean unlock = false;
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    SqlIdentifier table;
}
{
    ( <LOCK> { s = span(); } | <UNLOCK> { s = span(); unlock = true; } )
    ( <TABLE> | DuetWord("TABLES") )
    [
        LOOKAHEAD({ !unlock })
        table = CompoundIdentifier() DuetLockType() { tables.add(table); }
        ( <COMMA> table = CompoundIdentifier() DuetLockType() { tables.add(table); } )*
    ]
    {
        if (!unlock && tables.isEmpty()) {
            throw new ParseException("LOCK TABLES names at least one table");
        }
        return new SqlLockTables(s.end(this), unlock, new SqlNodeList(tables, s.pos()));
    }
}

/** A locked table's optional alias and its lock type. */
void DuetLockType() :
{
}
{
    [ <AS> SimpleIdentifier()
    | LOOKAHEAD({ getToken(1).kind != READ && getToken(1).kind != WRITE && getToken(1).kind != LOW_PRIORITY })
      SimpleIdentifier() ]
    ( <READ> [ <LOCAL> ] | [ <LOW_PRIORITY> ] <WRITE> )
}

/** A word that is no keyword of the grammar (TABLES, ...), matched without regard to case. */
void DuetWord(String expected) :
{
    final SqlIdentifier word;
}
{
    word = SimpleIdentifier() {
        if (!word.getSimple().equalsIgnoreCase(expected)) {
            throw new ParseException("Encountered \"" + word.getSimple() + "\": expected " + expected);
        }
    }
}

/**
 * IMPORT INTO t [(column, ...)] FROM 'location' [FORMAT 'csv'] [WITH option [= value] [, ...]] (TiDB's): a
 * physical import of files into an empty table.
 */
SqlNode DuetImportInto() :
{
    final Span s;
    final SqlIdentifier table;
    SqlNodeList columns = null;
    final SqlNode location;
    SqlNode format = null;
    final List<SqlNode> withOptions = new ArrayList<SqlNode>();
}
{
    <IMPORT> { s = span(); } <INTO> table = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <FROM> location = StringLiteral()
    [ <FORMAT> format = StringLiteral() ]
    [ <WITH> DuetImportOption(withOptions) ( <COMMA> DuetImportOption(withOptions) )* ]
    {
        return new SqlImportInto(s.end(this), table, columns, location, format,
            new SqlNodeList(withOptions, s.pos()));
    }
}

/** name [= literal]: a name alone is a flag (its value TRUE). */
void DuetImportOption(List<SqlNode> withOptions) :
{
    final SqlIdentifier name;
    SqlNode value = null;
}
{
    name = SimpleIdentifier() [ <EQ> value = Literal() ]
    {
        withOptions.add(name);
        withOptions.add(value == null ? SqlLiteral.createBoolean(true, name.getParserPosition()) : value);
    }
}

/**
 * LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file' [REPLACE | IGNORE] INTO TABLE t
 * [CHARACTER SET name] [{FIELDS | COLUMNS} [TERMINATED BY 's'] [[OPTIONALLY] ENCLOSED BY 'c'] [ESCAPED BY 'c']]
 * [LINES [STARTING BY 's'] [TERMINATED BY 's']] [IGNORE n {LINES | ROWS}] [(column, ...)] [SET column = expr, ...].
 */
SqlNode DuetLoadData() :
{
    final Span s;
    boolean local = false;
    final SqlNode file;
    String duplicates = null;
    final SqlIdentifier table;
    String charset = null;
    SqlNode fieldsTerminated = null;
    SqlNode enclosed = null;
    SqlNode escaped = null;
    SqlNode linesStarting = null;
    SqlNode linesTerminated = null;
    SqlNode ignoreLines = null;
    SqlNodeList columns = null;
    final List<SqlNode> assignments = new ArrayList<SqlNode>();
    SqlIdentifier word;
    SqlIdentifier target;
    SqlNode value;
}
{
    <LOAD> { s = span(); } <DATA>
    [ <LOW_PRIORITY> | LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("CONCURRENT") }) word = SimpleIdentifier() ]
    [ <LOCAL> { local = true; } ]
    <INFILE> file = StringLiteral()
    [ <REPLACE> { duplicates = "REPLACE"; } | <IGNORE> { duplicates = "IGNORE"; } ]
    <INTO> <TABLE> table = CompoundIdentifier()
    [ ( <CHARACTER> <SET> | <CHARSET> ) word = SimpleIdentifier() { charset = word.getSimple(); } ]
    [
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("FIELDS") || getToken(1).image.equalsIgnoreCase("COLUMNS") })
        word = SimpleIdentifier()
        [ <TERMINATED> <BY> fieldsTerminated = StringLiteral() ]
        [ [ <OPTIONALLY> ] <ENCLOSED> <BY> enclosed = StringLiteral() ]
        [ <ESCAPED> <BY> escaped = StringLiteral() ]
    ]
    [
        <LINES>
        [ <STARTING> <BY> linesStarting = StringLiteral() ]
        [ <TERMINATED> <BY> linesTerminated = StringLiteral() ]
    ]
    [ <IGNORE> ignoreLines = UnsignedNumericLiteral() ( <LINES> | <ROWS> ) ]
    [
        <LPAREN> { columns = new SqlNodeList(getPos()); }
        [
            // Columns, or user variables (@v, rewritten by the front end before parsing) that SET may use.
            value = Expression(ExprContext.ACCEPT_NON_QUERY) { columns.add(value); }
            ( <COMMA> value = Expression(ExprContext.ACCEPT_NON_QUERY) { columns.add(value); } )*
        ]
        <RPAREN>
    ]
    [
        <SET> target = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_NON_QUERY)
        { assignments.add(target); assignments.add(value); }
        (
            <COMMA> target = SimpleIdentifier() <EQ> value = Expression(ExprContext.ACCEPT_NON_QUERY)
            { assignments.add(target); assignments.add(value); }
        )*
    ]
    {
        return new SqlLoadData(s.end(this), local, file, duplicates, table, charset, fieldsTerminated, enclosed,
            escaped, linesStarting, linesTerminated, ignoreLines, columns, new SqlNodeList(assignments, s.pos()));
    }
}

/**
 * SHOW statements as MySQL 8.0 writes them. Their words are keywords of the grammar or plain identifiers, so they
 * are matched by their text.
 */
SqlNode DuetShow() :
{
    final Span s;
    SqlShow.Kind kind;
    boolean full = false;
    SqlShow.Scope scope = SqlShow.Scope.SESSION;
    SqlIdentifier object = null;
    SqlIdentifier database = null;
    SqlNode like = null;
    SqlNode where = null;
    boolean ifNotExists = false;
    AccountName account = null;
}
{
    <SHOW> { s = span(); }
    (
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("GRANTS") }) DuetSkipWord()
        [ <FOR> account = DuetAccountOrCurrentUser() ]
        {
            return new SqlShowGrants(s.end(this), account);
        }
    |
        <CREATE>
        (
            <TABLE> { kind = SqlShow.Kind.CREATE_TABLE; }
        |   <VIEW> { kind = SqlShow.Kind.CREATE_VIEW; }
        |   ( <DATABASE> | <SCHEMA> ) { kind = SqlShow.Kind.CREATE_DATABASE; }
            [ <IF> <NOT> <EXISTS> { ifNotExists = true; } ]
        )
        object = CompoundIdentifier()
    |
        <TABLE> DuetShowWord("STATUS") { kind = SqlShow.Kind.TABLE_STATUS; }
        [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).kind == DATABASES || getToken(1).image.equalsIgnoreCase("SCHEMAS") })
        ( <DATABASES> | LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("SCHEMAS") }) DuetSkipWord() ) { kind = SqlShow.Kind.DATABASES; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("CHARSET") || getToken(1).kind == CHARACTER })
        ( LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("CHARSET") }) DuetSkipWord() | <CHARACTER> <SET> ) { kind = SqlShow.Kind.CHARACTER_SET; }
    |
        LOOKAHEAD({ getToken(1).kind == INDEX || getToken(1).image.equalsIgnoreCase("INDEXES")
                || getToken(1).image.equalsIgnoreCase("KEYS") })
        ( <INDEX> | LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("INDEXES") || getToken(1).image.equalsIgnoreCase("KEYS") }) DuetSkipWord() )
        { kind = SqlShow.Kind.INDEX; }
        DuetShowFrom() object = CompoundIdentifier() [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("GLOBAL") || getToken(1).image.equalsIgnoreCase("SESSION") || getToken(1).image.equalsIgnoreCase("LOCAL") })
        DuetSkipWord() { scope = getToken(0).image.equalsIgnoreCase("GLOBAL") ? SqlShow.Scope.GLOBAL : SqlShow.Scope.SESSION; }
        ( LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("VARIABLES") }) DuetSkipWord() { kind = SqlShow.Kind.VARIABLES; }
        | DuetShowWord("STATUS") { kind = SqlShow.Kind.STATUS; } )
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("FULL") }) DuetSkipWord() { full = true; }
        ( LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("TABLES") }) DuetSkipWord() { kind = SqlShow.Kind.TABLES; }
            [ DuetShowFrom() database = SimpleIdentifier() ]
        | LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("COLUMNS") || getToken(1).image.equalsIgnoreCase("FIELDS") }) DuetSkipWord() { kind = SqlShow.Kind.COLUMNS; }
            DuetShowFrom() object = CompoundIdentifier() [ DuetShowFrom() database = SimpleIdentifier() ]
        | DuetShowWord("PROCESSLIST") { kind = SqlShow.Kind.PROCESSLIST; } )
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("TABLES") }) DuetSkipWord() { kind = SqlShow.Kind.TABLES; }
        [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("COLUMNS") || getToken(1).image.equalsIgnoreCase("FIELDS") }) DuetSkipWord() { kind = SqlShow.Kind.COLUMNS; }
        DuetShowFrom() object = CompoundIdentifier() [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("PROCEDURE") || getToken(1).image.equalsIgnoreCase("FUNCTION") })
        DuetSkipWord() { kind = getToken(0).image.equalsIgnoreCase("PROCEDURE") ? SqlShow.Kind.PROCEDURE_STATUS
                : SqlShow.Kind.FUNCTION_STATUS; }
        DuetShowWord("STATUS")
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("TRIGGERS") || getToken(1).image.equalsIgnoreCase("EVENTS") })
        DuetSkipWord() { kind = getToken(0).image.equalsIgnoreCase("TRIGGERS") ? SqlShow.Kind.TRIGGERS
                : SqlShow.Kind.EVENTS; }
        [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("OPEN") }) DuetSkipWord() DuetShowWord("TABLES") { kind = SqlShow.Kind.OPEN_TABLES; }
        [ DuetShowFrom() database = SimpleIdentifier() ]
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("STORAGE") || getToken(1).image.equalsIgnoreCase("ENGINES") })
        [ LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("STORAGE") }) DuetSkipWord() ] DuetShowWord("ENGINES") { kind = SqlShow.Kind.ENGINES; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("VARIABLES") }) DuetSkipWord() { kind = SqlShow.Kind.VARIABLES; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("STATUS") }) DuetSkipWord() { kind = SqlShow.Kind.STATUS; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("COLLATION") }) DuetSkipWord() { kind = SqlShow.Kind.COLLATION; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("WARNINGS") || getToken(1).image.equalsIgnoreCase("ERRORS") })
        DuetSkipWord() { kind = getToken(0).image.equalsIgnoreCase("WARNINGS") ? SqlShow.Kind.WARNINGS
                : SqlShow.Kind.ERRORS; }
    |
        LOOKAHEAD({ getToken(1).kind == COUNT }) <COUNT> <LPAREN> <STAR> <RPAREN>
        (
            LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("WARNINGS") }) DuetSkipWord()
            { kind = SqlShow.Kind.WARNING_COUNT; }
        |   DuetShowWord("ERRORS") { kind = SqlShow.Kind.ERROR_COUNT; }
        )
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("PLUGINS") }) DuetSkipWord() { kind = SqlShow.Kind.PLUGINS; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("PROCESSLIST") }) DuetSkipWord() { kind = SqlShow.Kind.PROCESSLIST; }
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("STATS_META") || getToken(1).image.equalsIgnoreCase("STATS_HISTOGRAMS") || getToken(1).image.equalsIgnoreCase("STATS_BUCKETS")
                || getToken(1).image.equalsIgnoreCase("STATS_TOPN") })
        DuetSkipWord() { kind = SqlShow.Kind.valueOf(getToken(0).image.toUpperCase(java.util.Locale.ROOT)); }
    )
    [
        <LIKE> like = StringLiteral()
    |   <WHERE> where = Expression(ExprContext.ACCEPT_NON_QUERY)
    ]
    {
        return new SqlShow(s.end(this), kind, full, scope, object, database, like, where, ifNotExists);
    }
}

/** FROM or IN, as SHOW statements write either before a table or database name. */
void DuetShowFrom() :
{
}
{
    <FROM> | <IN>
}

/** The word expected next, a keyword of the grammar or not. */
JAVACODE void DuetShowWord(String expected) {
    if (!getToken(1).image.equalsIgnoreCase(expected)) {
        throw generateParseException();
    }
    getNextToken();
}

/** Consumes the next token, a word a semantic look-ahead has checked. */
JAVACODE void DuetSkipWord() {
    getNextToken();
}

/** USING BTREE or HASH: the kind of index MySQL builds; DuetDB's indexes are ordered key ranges either way. */
void DuetIndexType() :
{
}
{
    <USING> DuetWordIn("BTREE", "HASH", "RTREE")
}

/** One of the words, whatever kind of token it is. */
JAVACODE void DuetWordIn(String... words) {
    for (String word : words) {
        if (getToken(1).image.equalsIgnoreCase(word)) {
            getNextToken();
            return;
        }
    }
    throw generateParseException();
}

/** Whether a column option follows (the loop over them must stop at anything else). */
JAVACODE boolean DuetColumnOptionNext() {
    Token next = getToken(1);
    switch (next.kind) {
    case NOT: case NULL: case DEFAULT_: case AUTO_INCREMENT: case PRIMARY: case UNIQUE: case KEY: case CLUSTERED:
    case NONCLUSTERED: case COMMENT: case ON: case COLLATE: case CHECK: case CONSTRAINT: case GENERATED: case AS:
    case REFERENCES:
        return true;
    default:
        return next.image.equalsIgnoreCase("COLUMN_FORMAT") || next.image.equalsIgnoreCase("STORAGE");
    }
}

/** Whether an index option follows its column list. */
JAVACODE boolean DuetIndexOptionNext() {
    Token next = getToken(1);
    switch (next.kind) {
    case CLUSTERED: case NONCLUSTERED: case COMMENT: case USING:
        return true;
    default:
        return next.image.equalsIgnoreCase("KEY_BLOCK_SIZE") || next.image.equalsIgnoreCase("VISIBLE")
            || next.image.equalsIgnoreCase("INVISIBLE");
    }
}

/**
 * CREATE [DEFINER = account] {PROCEDURE | FUNCTION | TRIGGER | EVENT} ...: the rest of the statement (a body that
 * may hold semicolons) is skipped, and the statement is refused as not supported.
 */
SqlCreate DuetCreateUnsupported(Span s) :
{
    final String objects;
}
{
    {
        String word = getToken(1).image.toUpperCase(Locale.ROOT);
        objects = word.equals("PROCEDURE") ? "stored procedures" : word.equals("FUNCTION") ? "stored functions"
            : word.equals("TRIGGER") ? "triggers" : "events";
    }
    DuetSkipToEnd()
    {
        return new SqlCreateUnsupported(s.end(this), objects);
    }
}

/** Consumes every token up to the end of the statement. */
JAVACODE void DuetSkipToEnd() {
    while (getToken(1).kind != EOF) {
        getNextToken();
    }
}

/** COMMIT [WORK] and ROLLBACK [WORK]. */
SqlNode DuetEndTransaction() :
{
    final Span s;
    final boolean commit;
}
{
    ( <COMMIT> { commit = true; } | <ROLLBACK> { commit = false; } ) { s = span(); }
    [ <WORK> ]
    {
        return new SqlEndTransaction(s.end(this), commit);
    }
}

/** USE database. */
SqlNode DuetUse() :
{
    final Span s;
    final SqlIdentifier database;
}
{
    <USE> { s = span(); } database = SimpleIdentifier()
    {
        return new SqlUseDatabase(s.end(this), database);
    }
}

/** KILL [CONNECTION | QUERY] connection id. */
SqlNode DuetKill() :
{
    final Span s;
    boolean queryOnly = false;
    final SqlLiteral id;
}
{
    <KILL> { s = span(); }
    [
        LOOKAHEAD({ getToken(1).kind == CONNECTION }) <CONNECTION>
    |
        LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("QUERY") }) SimpleIdentifier() { queryOnly = true; }
    ]
    id = UnsignedNumericLiteral()
    {
        return new SqlKill(s.end(this), queryOnly, id.longValue(true));
    }
}

/** ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE t [, ...] [option ...]. */
SqlNode DuetAnalyzeTable() :
{
    final Span s;
    final List<SqlNode> tables = new ArrayList<SqlNode>();
    SqlIdentifier table;
}
{
    <ANALYZE> { s = span(); } [ <NO_WRITE_TO_BINLOG> | <LOCAL> ] <TABLE>
    table = CompoundIdentifier() { tables.add(table); }
    ( <COMMA> table = CompoundIdentifier() { tables.add(table); } )*
    ( DuetAnalyzeOption() )*
    {
        return new SqlAnalyzeTable(s.end(this), new SqlNodeList(tables, s.pos()));
    }
}

/**
 * TiDB's options (WITH n BUCKETS | TOPN | SAMPLES | SAMPLERATE | CMSKETCH DEPTH | CMSKETCH WIDTH [, ...], ALL
 * COLUMNS, PREDICATE COLUMNS, COLUMNS c [, ...], INDEX [i, ...]) and MySQL's histogram statements (UPDATE HISTOGRAM
 * ON c [, ...] [WITH n BUCKETS], DROP HISTOGRAM ON c [, ...]).
 */
void DuetAnalyzeOption() :
{
}
{
    <WITH> DuetAnalyzeCount() ( <COMMA> DuetAnalyzeCount() )*
|
    <ALL> DuetWord("COLUMNS")
|
    LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("PREDICATE") }) SimpleIdentifier() DuetWord("COLUMNS")
|
    LOOKAHEAD({ getToken(1).image.equalsIgnoreCase("COLUMNS") }) SimpleIdentifier()
    SimpleIdentifier() ( <COMMA> SimpleIdentifier() )*
|
    <INDEX> [ LOOKAHEAD(1) SimpleIdentifier() ( <COMMA> SimpleIdentifier() )* ]
|
    ( <UPDATE> | <DROP> ) DuetWord("HISTOGRAM") <ON> SimpleIdentifier() ( <COMMA> SimpleIdentifier() )*
    [ LOOKAHEAD(1) <WITH> UnsignedNumericLiteral() DuetWord("BUCKETS") ]
}

/** n BUCKETS, n TOPN, n SAMPLES, x SAMPLERATE, n CMSKETCH DEPTH or n CMSKETCH WIDTH. */
void DuetAnalyzeCount() :
{
    final SqlIdentifier what;
}
{
    UnsignedNumericLiteral() what = SimpleIdentifier()
    [ LOOKAHEAD({ what.getSimple().equalsIgnoreCase("CMSKETCH") }) SimpleIdentifier() ]
}
