package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.sql.catalog.InfoSchema;

/**
 * The tables a SELECT's FROM clause names, read from the parsed query before validation: each source by the name
 * that qualifies its columns, and the ON conditions of its joins. Derived tables and other sources whose columns
 * are not known here are opaque: a column name that one of them might hold is not resolved.
 */
final class FromClause {
    /** A table or derived table of the FROM clause; {@code table} is null for anything but a catalog table. */
    record Source(String name, String database, TableInfo table) {
        Source {
            requireNonNull(name, "name is null");
        }

        Optional<ColumnInfo> column(String columnName) {
            if (table == null) {
                return Optional.empty();
            }
            return table.publicColumns().stream().filter(column -> column.name().equalsIgnoreCase(columnName))
                    .findFirst();
        }
    }

    /** A column of a source, compared by its source and its name in lower case. */
    record Column(Source source, String name) {
        Column {
            requireNonNull(source, "source is null");
            name = requireNonNull(name, "name is null").toLowerCase(Locale.ROOT);
        }

        /** MySQL's name for it in messages: database, source and column. */
        String qualifiedName() {
            String column = source.column(name).map(ColumnInfo::name).orElse(name);
            return (source.database() == null ? "" : source.database() + ".") + source.name() + "." + column;
        }
    }

    /**
     * The ON condition of a join: {@code preserved} holds the sources whose columns determine the others' through
     * it (both sides of an inner join, the preserved side of an outer join).
     */
    record JoinCondition(SqlNode condition, boolean inner, List<Source> preserved) {
        JoinCondition {
            requireNonNull(condition, "condition is null");
            preserved = List.copyOf(requireNonNull(preserved, "preserved is null"));
        }
    }

    private final List<Source> sources = new ArrayList<>();
    private final List<JoinCondition> joinConditions = new ArrayList<>();
    private boolean opaque;
    private boolean mergesColumns;

    private FromClause() {
    }

    static FromClause of(SqlNode from, InfoSchema schema, String defaultDatabase) {
        FromClause clause = new FromClause();
        if (from != null) {
            clause.add(from, schema, defaultDatabase);
        }
        return clause;
    }

    List<Source> sources() {
        return sources;
    }

    List<JoinCondition> joinConditions() {
        return joinConditions;
    }

    /** The sources {@code node} adds, in order. */
    private List<Source> add(SqlNode node, InfoSchema schema, String defaultDatabase) {
        int first = sources.size();
        if (node instanceof SqlIdentifier identifier) {
            addTable(identifier, identifier.names.get(identifier.names.size() - 1), schema, defaultDatabase);
        } else if (node instanceof SqlJoin join) {
            List<Source> left = add(join.getLeft(), schema, defaultDatabase);
            List<Source> right = add(join.getRight(), schema, defaultDatabase);
            mergesColumns |= join.isNatural() || join.getConditionType() == JoinConditionType.USING;
            if (join.getConditionType() == JoinConditionType.ON && join.getCondition() != null) {
                JoinType type = join.getJoinType();
                if (type == JoinType.INNER || type == JoinType.COMMA || type == JoinType.CROSS) {
                    List<Source> both = new ArrayList<>(left);
                    both.addAll(right);
                    joinConditions.add(new JoinCondition(join.getCondition(), true, both));
                } else if (type == JoinType.LEFT) {
                    joinConditions.add(new JoinCondition(join.getCondition(), false, left));
                } else if (type == JoinType.RIGHT) {
                    joinConditions.add(new JoinCondition(join.getCondition(), false, right));
                }
            }
        } else if (node.getKind() == SqlKind.AS && node instanceof SqlCall as
                && as.operand(1) instanceof SqlIdentifier alias) {
            if (as.operand(0) instanceof SqlIdentifier table && as.operandCount() == 2) {
                addTable(table, alias.getSimple(), schema, defaultDatabase);
            } else {
                opaque = true;
                sources.add(new Source(alias.getSimple(), null, null));
            }
        } else {
            opaque = true;
        }
        return List.copyOf(sources.subList(first, sources.size()));
    }

    private void addTable(SqlIdentifier name, String qualifier, InfoSchema schema, String defaultDatabase) {
        String database = name.names.size() >= 2 ? name.names.get(name.names.size() - 2) : defaultDatabase;
        String tableName = name.names.get(name.names.size() - 1);
        TableInfo table = database == null ? null : schema.table(database, tableName).orElse(null);
        if (table == null) {
            opaque = true;
        }
        sources.add(new Source(qualifier, database, table));
    }

    /**
     * A select list with its stars ({@code *}, {@code t.*}) written out as the columns they stand for, qualified by
     * their source, when every source is a catalog table and no join merges columns (NATURAL, USING); else empty.
     */
    Optional<List<SqlNode>> expandStars(List<SqlNode> items) {
        if (opaque || mergesColumns) {
            return Optional.empty();
        }
        List<SqlNode> expanded = new ArrayList<>();
        for (SqlNode item : items) {
            if (!(item instanceof SqlIdentifier identifier) || !identifier.isStar()) {
                expanded.add(item);
                continue;
            }
            String qualifier = identifier.names.size() >= 2 ? identifier.names.get(identifier.names.size() - 2) : null;
            boolean matched = false;
            for (Source source : sources) {
                if (qualifier != null && !source.name().equalsIgnoreCase(qualifier)) {
                    continue;
                }
                matched = true;
                for (ColumnInfo column : source.table().publicColumns()) {
                    expanded.add(new SqlIdentifier(List.of(source.name(), column.name()), identifier.getParserPosition()));
                }
            }
            if (!matched) {
                return Optional.empty();
            }
        }
        return Optional.of(expanded);
    }

    /**
     * The column an identifier names among these sources, when it is certain: a qualified name whose source is a
     * catalog table that has the column, or an unqualified one that exactly one table has while no opaque source
     * could have it.
     */
    Optional<Column> resolve(SqlIdentifier identifier) {
        if (identifier.isStar()) {
            return Optional.empty();
        }
        List<String> names = identifier.names;
        String columnName = names.get(names.size() - 1);
        if (names.size() == 1) {
            if (opaque) {
                return Optional.empty();
            }
            Column found = null;
            for (Source source : sources) {
                if (source.column(columnName).isPresent()) {
                    if (found != null) {
                        return Optional.empty();
                    }
                    found = new Column(source, columnName);
                }
            }
            return Optional.ofNullable(found);
        }
        String qualifier = names.get(names.size() - 2);
        String database = names.size() >= 3 ? names.get(names.size() - 3) : null;
        Source match = null;
        for (Source source : sources) {
            boolean named = source.name().equalsIgnoreCase(qualifier) && (database == null
                    || source.database() != null && source.database().equalsIgnoreCase(database));
            if (named) {
                if (match != null) {
                    return Optional.empty();
                }
                match = source;
            }
        }
        if (match == null || match.column(columnName).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Column(match, columnName));
    }
}
