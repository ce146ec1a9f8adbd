package io.duetdb.spark.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/**
 * DDL a Spark catalog runs on a DuetDB SQL server, as TiSpark reached TiDB: through JDBC, with the MySQL driver the
 * job puts on its class path (MySQL Connector/J, {@code --jars}), to the server the catalog's {@code sql} option
 * names ({@code user} and {@code password} options, root and empty by default). The SQL server runs DDL's online
 * schema change; the connector only says what to create or drop.
 */
public final class CatalogDdl {
    public static final String SQL_SERVER = "sql";
    public static final String USER = "user";
    public static final String PASSWORD = "password";
    /** The table property naming the primary key's columns, comma-separated. */
    public static final String PRIMARY_KEY = "primary_key";
    /** How Spark records CHAR(n) and VARCHAR(n) of a column it types as a string. */
    private static final Pattern CHAR_VARCHAR = Pattern.compile("\"__CHAR_VARCHAR_TYPE_STRING\":\"((?:var)?char\\(\\d+\\))\"",
            Pattern.CASE_INSENSITIVE);
    private static final int ER_DB_CREATE_EXISTS = 1007;
    private static final int ER_DB_DROP_EXISTS = 1008;
    private static final int ER_TABLE_EXISTS = 1050;
    private static final int ER_BAD_DB = 1049;
    private static final int ER_BAD_TABLE = 1051;

    private final String url;
    private final String user;
    private final String password;

    private CatalogDdl(String url, String user, String password) {
        this.url = requireNonNull(url, "url is null");
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
    }

    /** The DDL of a catalog configured with {@code options}; refuses when no SQL server is named. */
    public static CatalogDdl of(Map<String, String> options, String statement) {
        String server = value(options, SQL_SERVER);
        if (server == null || server.isBlank()) {
            throw new UnsupportedOperationException(statement + " through the Spark catalog needs a DuetDB SQL server:"
                    + " set spark.sql.catalog.<name>.sql=host:port (and .user, .password), or run it on a SQL server");
        }
        String user = value(options, USER);
        String password = value(options, PASSWORD);
        return new CatalogDdl("jdbc:mysql://" + server.trim() + "/", user == null ? "root" : user,
                password == null ? "" : password);
    }

    /** What one DDL statement ended with. */
    public enum Outcome {
        DONE,
        ALREADY_EXISTS,
        NOT_FOUND
    }

    public Outcome createDatabase(String database) {
        return run("CREATE DATABASE " + quoted(database));
    }

    public Outcome dropDatabase(String database) {
        return run("DROP DATABASE " + quoted(database));
    }

    public Outcome dropTable(String database, String table) {
        return run("DROP TABLE " + quoted(database) + "." + quoted(table));
    }

    public Outcome createTable(String database, String table, Column[] columns, Transform[] partitions,
            Map<String, String> properties) {
        return run(createTableStatement(database, table, columns, partitions, properties));
    }

    /** CREATE TABLE for a Spark schema: MySQL types for Spark's, NOT NULL, comments, a primary key property. */
    static String createTableStatement(String database, String table, Column[] columns, Transform[] partitions,
            Map<String, String> properties) {
        if (partitions.length > 0) {
            throw new UnsupportedOperationException("PARTITIONED BY is not supported by DuetDB tables: "
                    + Arrays.toString(partitions));
        }
        List<String> definitions = new ArrayList<>();
        for (Column column : columns) {
            if (column.defaultValue() != null || column.generationExpression() != null) {
                throw new UnsupportedOperationException("column " + column.name() + ": DEFAULT and GENERATED ALWAYS AS"
                        + " through the Spark catalog are not supported; create the table on a SQL server");
            }
            StringBuilder definition = new StringBuilder(quoted(column.name())).append(' ')
                    .append(mysqlType(column.name(), column.dataType(), column.metadataInJSON()));
            if (!column.nullable()) {
                definition.append(" NOT NULL");
            }
            if (column.comment() != null) {
                definition.append(" COMMENT ").append(literal(column.comment()));
            }
            definitions.add(definition.toString());
        }
        String primaryKey = properties.get(PRIMARY_KEY);
        if (primaryKey != null && !primaryKey.isBlank()) {
            List<String> keyColumns = new ArrayList<>();
            for (String name : primaryKey.split(",")) {
                keyColumns.add(quoted(name.trim()));
            }
            definitions.add("PRIMARY KEY (" + String.join(", ", keyColumns) + ")");
        }
        StringBuilder statement = new StringBuilder("CREATE TABLE ").append(quoted(database)).append('.')
                .append(quoted(table)).append(" (").append(String.join(", ", definitions)).append(')');
        String comment = properties.get("comment");
        if (comment != null) {
            statement.append(" COMMENT ").append(literal(comment));
        }
        return statement.toString();
    }

    /** The MySQL type a Spark type is stored as; CHAR(n) and VARCHAR(n) as Spark recorded them. */
    static String mysqlType(String column, DataType type, String metadataJson) {
        if (type instanceof VarcharType varchar) {
            return "VARCHAR(" + varchar.length() + ")";
        }
        if (type instanceof CharType fixed) {
            return "CHAR(" + fixed.length() + ")";
        }
        if (type instanceof StringType) {
            Matcher declared = metadataJson == null ? null : CHAR_VARCHAR.matcher(metadataJson);
            return declared != null && declared.find() ? declared.group(1).toUpperCase(Locale.ROOT) : "LONGTEXT";
        }
        if (type instanceof DecimalType decimal) {
            return "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
        }
        if (type instanceof BooleanType) {
            return "BOOLEAN";
        }
        if (type instanceof ByteType) {
            return "TINYINT";
        }
        if (type instanceof ShortType) {
            return "SMALLINT";
        }
        if (type instanceof IntegerType) {
            return "INT";
        }
        if (type instanceof LongType) {
            return "BIGINT";
        }
        if (type instanceof FloatType) {
            return "FLOAT";
        }
        if (type instanceof DoubleType) {
            return "DOUBLE";
        }
        if (type instanceof DateType) {
            return "DATE";
        }
        if (type instanceof TimestampType) {
            return "TIMESTAMP(6) NULL";
        }
        if (type instanceof TimestampNTZType) {
            return "DATETIME(6)";
        }
        if (type instanceof BinaryType) {
            return "LONGBLOB";
        }
        throw new UnsupportedOperationException("column " + column + ": Spark type " + type.sql()
                + " has no DuetDB column type");
    }

    private Outcome run(String sql) {
        Connection connection;
        try {
            connection = DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            if ("08001".equals(e.getSQLState()) && e.getMessage() != null && e.getMessage().contains("suitable driver")) {
                throw new IllegalStateException("no JDBC driver for " + url + ": put MySQL Connector/J on the job's"
                        + " class path (spark-submit --jars mysql-connector-j.jar)", e);
            }
            throw new IllegalStateException("connecting to the DuetDB SQL server at " + url + " failed: "
                    + e.getMessage(), e);
        }
        try (connection; Statement statement = connection.createStatement()) {
            statement.execute(sql);
            return Outcome.DONE;
        } catch (SQLException e) {
            return switch (e.getErrorCode()) {
                case ER_DB_CREATE_EXISTS, ER_TABLE_EXISTS -> Outcome.ALREADY_EXISTS;
                case ER_BAD_DB, ER_DB_DROP_EXISTS, ER_BAD_TABLE -> Outcome.NOT_FOUND;
                default -> throw new IllegalArgumentException(sql + " failed on the SQL server: " + e.getMessage()
                        + " (" + e.getErrorCode() + ")", e);
            };
        }
    }

    private static String value(Map<String, String> options, String key) {
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (option.getKey().equalsIgnoreCase(key)) {
                return option.getValue();
            }
        }
        return null;
    }

    private static String quoted(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
