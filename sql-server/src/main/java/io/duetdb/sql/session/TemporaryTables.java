package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.parser.ddl.SqlCreateDatabase;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlDropDatabase;
import io.duetdb.sql.parser.ddl.SqlDropTable;
import io.duetdb.sql.parser.ddl.SqlForeignKey;
import io.duetdb.sql.parser.ddl.SqlTableOption;

/**
 * One session's temporary tables (CREATE TEMPORARY TABLE): tables of the row store like any other, created in a
 * database of the session's own for each database it names them in ({@link InfoSchema#temporaryTablesDatabase}), so
 * that they keep their names, never meet another session's, and go with one DROP DATABASE when the session ends. The
 * session finds them by name before the tables they hide, as MySQL does; SHOW TABLES and information_schema do not
 * list them.
 */
final class TemporaryTables {
    private static final Logger LOG = LoggerFactory.getLogger(TemporaryTables.class);

    /** Where a temporary table lives: its database of temporary tables, and its name (also the session's name). */
    private record Location(String database, String table) {
        Location {
            requireNonNull(database, "database is null");
            requireNonNull(table, "table is null");
        }
    }

    private final Session session;
    /** By lower-case database name, then lower-case table name, as the session names them. */
    private final Map<String, Map<String, Location>> tables = new HashMap<>();
    /** The databases of temporary tables this session made; dropped when it ends. */
    private final Set<String> databases = new LinkedHashSet<>();
    private InfoSchema seenSchema;
    private InfoSchema seenOverlay;

    TemporaryTables(Session session) {
        this.session = requireNonNull(session, "session is null");
    }

    boolean isEmpty() {
        return tables.isEmpty();
    }

    /** {@code schema} as the session sees it: its temporary tables found by name first. */
    InfoSchema overlay(InfoSchema schema) {
        if (tables.isEmpty()) {
            return schema;
        }
        if (schema == seenSchema) {
            return seenOverlay;
        }
        Map<String, Map<String, TableInfo>> found = new HashMap<>();
        tables.forEach((database, named) -> named.forEach((name, location) -> schema.table(location.database(),
                location.table()).ifPresent(table -> found.computeIfAbsent(database, key -> new HashMap<>())
                        .put(name, table))));
        seenOverlay = schema.withTemporaryTables(found);
        seenSchema = schema;
        return seenOverlay;
    }

    /** Whether {@code databaseName} holds this session's temporary tables. */
    boolean owns(String databaseName) {
        return databaseName != null && databases.contains(databaseName.toLowerCase(Locale.ROOT));
    }

    /** The temporary table the session names {@code database}.{@code table}, as the catalog names it. */
    Optional<SqlIdentifier> find(String database, String table) {
        Location location = tables.getOrDefault(database.toLowerCase(Locale.ROOT), Map.of())
                .get(table.toLowerCase(Locale.ROOT));
        return Optional.ofNullable(location).map(found -> new SqlIdentifier(List.of(found.database(), found.table()),
                SqlParserPos.ZERO));
    }

    /** Points {@code identifier} at the temporary table it names, if it names one. */
    void redirect(SqlIdentifier identifier) {
        String[] name = session.qualifiedName(identifier);
        find(name[0], name[1]).ifPresent(found -> identifier.setNames(found.names, null));
    }

    /** CREATE TEMPORARY TABLE; does not end the open transaction, as in MySQL. */
    StatementResult create(SqlCreateTable create, String sql) {
        String[] name = session.qualifiedName(create.name());
        InfoSchema schema = session.manager().latestInfoSchema();
        DatabaseInfo database = schema.database(name[0]).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_DATABASE,
                "Unknown database '" + name[0] + "'"));
        session.require(Privilege.CREATE, database.name(), null);
        for (SqlNode element : create.elements()) {
            if (element instanceof SqlForeignKey) {
                throw new DuetException(ErrorCode.CANNOT_ADD_FOREIGN, "Cannot add foreign key constraint");
            }
        }
        if (find(name[0], name[1]).isPresent()) {
            if (create.ifNotExists()) {
                session.addNote(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
                return UpdateResult.NONE;
            }
            throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
        }
        String holder = InfoSchema.temporaryTablesDatabase(session.manager().serverId(), session.connectionIdValue(),
                database.id());
        if (schema.database(holder).isEmpty()) {
            SqlNodeList options = new SqlNodeList(List.of(new SqlTableOption(SqlParserPos.ZERO, "COLLATE",
                    database.defaultCollation().collationName())), SqlParserPos.ZERO);
            session.manager().ddl().execute(new SqlCreateDatabase(SqlParserPos.ZERO, true, identifier(holder), options),
                    null, () -> false, session.ddlSettings());
            LOG.info("connection {}: database {} holds its temporary tables of {}", session.connectionIdValue(), holder,
                    database.name());
        }
        databases.add(holder.toLowerCase(Locale.ROOT));
        SqlIdentifier like = null;
        if (create.likeTable() != null) {
            String[] source = session.qualifiedName(create.likeTable());
            like = find(source[0], source[1]).orElse(new SqlIdentifier(List.of(source[0], source[1]), SqlParserPos.ZERO));
        }
        SqlCreateTable created = create.named(new SqlIdentifier(List.of(holder, name[1]), SqlParserPos.ZERO), like);
        tables.computeIfAbsent(name[0].toLowerCase(Locale.ROOT), key -> new HashMap<>())
                .put(name[1].toLowerCase(Locale.ROOT), new Location(holder, name[1]));
        changed();
        try {
            if (created.query() != null) {
                return session.createTableAsSelect(created, sql);
            }
            session.manager().ddl().execute(created, session.currentDatabase(), () -> false, session.ddlSettings())
                    .forEach(session::addWarning);
            return UpdateResult.NONE;
        } catch (RuntimeException e) {
            forget(name[0], name[1]);
            throw e;
        }
    }

    /**
     * DROP [TEMPORARY] TABLE: drops the named temporary tables and answers the DROP TABLE of the other names, or null
     * when none is left. DROP TEMPORARY TABLE of a name that is no temporary table fails (1051) unless IF EXISTS.
     */
    SqlDropTable drop(SqlDropTable drop) {
        List<SqlNode> others = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (SqlNode node : drop.tables()) {
            String[] name = session.qualifiedName((SqlIdentifier) node);
            Optional<SqlIdentifier> found = find(name[0], name[1]);
            if (found.isPresent()) {
                session.manager().ddl().execute(new SqlDropTable(SqlParserPos.ZERO, true, new SqlNodeList(
                        List.of(found.get()), SqlParserPos.ZERO)), null, () -> false, session.ddlSettings());
                forget(name[0], name[1]);
            } else if (drop.temporary()) {
                unknown.add(name[0] + "." + name[1]);
            } else {
                others.add(node);
            }
        }
        if (!unknown.isEmpty()) {
            if (!drop.ifExists()) {
                throw new DuetException(ErrorCode.BAD_TABLE, "Unknown table '" + String.join(",", unknown) + "'");
            }
            unknown.forEach(name -> session.addNote(ErrorCode.BAD_TABLE, "Unknown table '" + name + "'"));
        }
        return others.isEmpty() ? null : new SqlDropTable(drop.getParserPosition(), false, drop.ifExists(),
                new SqlNodeList(others, drop.tables().getParserPosition()));
    }

    private void forget(String database, String table) {
        Map<String, Location> named = tables.get(database.toLowerCase(Locale.ROOT));
        if (named != null) {
            named.remove(table.toLowerCase(Locale.ROOT));
            if (named.isEmpty()) {
                tables.remove(database.toLowerCase(Locale.ROOT));
            }
        }
        changed();
    }

    /** The view of the schema is built again at the next look. */
    private void changed() {
        seenSchema = null;
        seenOverlay = null;
    }

    /** Drops every database of temporary tables the session made (their data goes as a dropped table's does). */
    void dropAll() {
        for (String holder : databases) {
            try {
                session.manager().ddl().execute(new SqlDropDatabase(SqlParserPos.ZERO, true, identifier(holder)), null,
                        () -> false, session.ddlSettings());
                LOG.info("connection {}: dropped its temporary tables ({})", session.connectionIdValue(), holder);
            } catch (RuntimeException e) {
                // The orphan collector drops it later: its server id says whose it was.
                LOG.info("connection {}: temporary tables of {} not dropped: {}", session.connectionIdValue(), holder,
                        e.toString());
            }
        }
        databases.clear();
        tables.clear();
        changed();
    }

    private static SqlIdentifier identifier(String name) {
        return new SqlIdentifier(name, SqlParserPos.ZERO);
    }
}
