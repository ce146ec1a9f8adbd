package io.duetdb.sql.prepare;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.calcite.schema.Table;

import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.exec.SessionFunctions;

/**
 * The {@code performance_schema} tables that MySQL 8.0 clients and administration tools read as they connect and
 * show a server: the system variables of the session and the server ({@code session_variables},
 * {@code global_variables}), the status variables ({@code session_status}, {@code global_status}) and the
 * connections ({@code processlist}), each read as the reading session sees the server.
 */
public final class PerformanceSchema {
    public static final String NAME = "performance_schema";
    /** The tables it holds, as SHOW TABLES lists them. */
    public static final List<String> TABLES = List.of("global_status", "global_variables", "processlist",
            "session_status", "session_variables");

    private PerformanceSchema() {
    }

    static Map<String, Table> tables(InfoSchema schema) {
        Map<String, Table> tables = new HashMap<>();
        List<InformationSchemaTable.Column> variable = List.of(
                new InformationSchemaTable.Column("VARIABLE_NAME", InformationSchemaTable.Column.Kind.TEXT),
                new InformationSchemaTable.Column("VARIABLE_VALUE", InformationSchemaTable.Column.Kind.TEXT));
        add(tables, schema, "session_variables", variable, session -> session.variables(false));
        add(tables, schema, "global_variables", variable, session -> session.variables(true));
        add(tables, schema, "session_status", variable, SessionFunctions::status);
        add(tables, schema, "global_status", variable, SessionFunctions::status);
        add(tables, schema, "processlist", InformationSchema.processListColumns(), SessionFunctions::processList);
        return tables;
    }

    private static void add(Map<String, Table> tables, InfoSchema schema, String name,
            List<InformationSchemaTable.Column> columns, Function<SessionFunctions, List<Object[]>> rows) {
        tables.put(name, InformationSchemaTable.ofSession(name, columns, rows, schema));
    }
}
