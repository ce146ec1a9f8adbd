package io.duetdb.testing.reference;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a connection to an endpoint. */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;
}
