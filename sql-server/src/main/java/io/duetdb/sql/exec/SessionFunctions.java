package io.duetdb.sql.exec;

import java.time.LocalDateTime;
import java.util.List;

/** What expressions read from their session: the functions of DuetFunctions and system variables. */
public interface SessionFunctions {
    String currentDatabase();

    long connectionId();

    long lastInsertId();

    /** ROW_COUNT(): the rows the previous statement changed, -1 when it returned rows or failed. */
    default long rowCount() {
        return -1;
    }

    /** FOUND_ROWS(): the rows the last query returned. */
    default long foundRows() {
        return 0;
    }

    String user();

    String serverVersion();

    /** The statement's start time (NOW() is constant within a statement). */
    LocalDateTime statementTime();

    /** A system variable's value in the given scope ("session", "global" or "" for MySQL's default). */
    Object systemVariable(String scope, String name);

    /** A user variable's value ({@code @name}; names ignore case), null when it was never set. */
    default Object userVariable(String name) {
        return null;
    }

    /** Sets a user variable ({@code @name := value}); null unsets it. */
    default void setUserVariable(String name, Object value) {
        throw new UnsupportedOperationException("user variables cannot be set here");
    }

    /** Whether a switch variable is on: anything but OFF, 0 or FALSE; on when unset. */
    default boolean switchedOn(String name) {
        Object value = systemVariable("", name);
        String text = value == null ? "ON" : String.valueOf(value).toUpperCase(java.util.Locale.ROOT);
        return !(text.equals("OFF") || text.equals("0") || text.equals("FALSE"));
    }

    /** The running statement's READ_FROM_STORAGE hints. */
    default StorageHints storageHints() {
        return StorageHints.NONE;
    }

    /** Adds a note (1105) to the statement's warnings, as SHOW WARNINGS lists them. */
    default void planWarning(String message) {
    }

    /** Fails with 1317 when KILL QUERY stopped the statement; long loops call it as they go. */
    void checkNotKilled();

    /** MySQL's SLEEP(seconds): 0 after sleeping, 1 when KILL QUERY cut it short. */
    long sleep(double seconds);

    /** The connections this session may see, as SHOW PROCESSLIST lists them (Id, User, Host, db, Command, Time, State, Info). */
    default List<Object[]> processList() {
        return List.of();
    }

    /** The system variables and their values (name, value), in the global scope or this session's, by name. */
    default List<Object[]> variables(boolean global) {
        return List.of();
    }

    /** The server's status variables (name, value), by name. */
    default List<Object[]> status() {
        return List.of();
    }
}
