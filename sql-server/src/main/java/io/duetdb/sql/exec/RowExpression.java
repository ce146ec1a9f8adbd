package io.duetdb.sql.exec;

/** A compiled scalar expression over an input row. */
@FunctionalInterface
public interface RowExpression {
    Object evaluate(Object[] row);
}
