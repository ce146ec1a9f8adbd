package io.duetdb.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.ForeignKeyReference;
import io.duetdb.sql.catalog.InfoSchema;

class ForeignKeysTest {
    private static final DatabaseInfo DATABASE = new DatabaseInfo(1, "shop");

    private static ColumnInfo column(int id, String name, SqlType type, boolean notNull) {
        return new ColumnInfo(id, name, id - 1, type, notNull, !notNull, null, false, false, false, "",
                SchemaState.PUBLIC);
    }

    private static TableInfo table(long id, String name, List<ColumnInfo> columns, List<IndexInfo> indexes,
            List<ForeignKey> foreignKeys) {
        return new TableInfo(id, DATABASE.id(), name, columns, indexes, null, columns.size() + 1, indexes.size() + 1,
                "", 0, null, 0, false, List.of(), null, foreignKeys);
    }

    private static final TableInfo CUSTOMER = table(10, "customer",
            List.of(column(1, "id", SqlType.INT, true), column(2, "email", SqlType.TEXT, false),
                    column(3, "region", SqlType.BIGINT, false)),
            List.of(new IndexInfo(1, IndexInfo.PRIMARY_NAME, List.of("id"), true, true, SchemaState.PUBLIC)),
            List.of());

    private static ForeignKey key(String name, String column, String table, String referenced, String onDelete) {
        return new ForeignKey(name, List.of(column), "shop", table, List.of(referenced), onDelete, null);
    }

    private static TableInfo child(ForeignKey foreignKey, boolean notNull) {
        return table(20, "orders", List.of(column(1, "id", SqlType.INT, true),
                column(2, "customer_id", SqlType.INT, notNull), column(3, "big", SqlType.BIGINT, false)),
                List.of(), List.of(foreignKey));
    }

    private static ErrorCode validate(TableInfo child, boolean checks) {
        InfoSchema schema = new InfoSchema(1, List.of(DATABASE), List.of(CUSTOMER));
        try {
            ForeignKeys.validate(schema, "shop", child, child.foreignKeys(), checks);
            return null;
        } catch (DuetException e) {
            return e.code();
        }
    }

    @Test
    void theReferencedTableNeedsTheColumnsAnIndexAndTheSameKindOfValues() {
        assertThat(validate(child(key("fk", "customer_id", "customer", "id", null), false), true)).isNull();
        assertThat(validate(child(key("fk", "customer_id", "missing", "id", null), false), true))
                .isEqualTo(ErrorCode.FOREIGN_KEY_CANNOT_OPEN_PARENT);
        assertThat(validate(child(key("fk", "customer_id", "customer", "nope", null), false), true))
                .isEqualTo(ErrorCode.FOREIGN_KEY_NO_COLUMN_IN_PARENT);
        assertThat(validate(child(key("fk", "big", "customer", "region", null), false), true))
                .isEqualTo(ErrorCode.FOREIGN_KEY_NO_INDEX_IN_PARENT);
        assertThat(validate(child(key("fk", "big", "customer", "id", null), false), true))
                .isEqualTo(ErrorCode.FOREIGN_KEY_INCOMPATIBLE_COLUMNS);
        // With foreign_key_checks off only the form is checked: the table may come later, as in a dump.
        assertThat(validate(child(key("fk", "customer_id", "missing", "id", null), false), false)).isNull();
        // SET NULL cannot clear a NOT NULL column, checks or not.
        assertThat(validate(child(key("fk", "customer_id", "customer", "id", "SET NULL"), true), false))
                .isEqualTo(ErrorCode.FOREIGN_KEY_COLUMN_NOT_NULL);
    }

    @Test
    void aTableMayReferenceItself() {
        TableInfo employee = table(30, "employee", List.of(column(1, "id", SqlType.INT, true),
                column(2, "boss", SqlType.INT, false)),
                List.of(new IndexInfo(1, IndexInfo.PRIMARY_NAME, List.of("id"), true, true, SchemaState.PUBLIC)),
                List.of(key("fk", "boss", "employee", "id", "CASCADE")));
        InfoSchema before = new InfoSchema(1, List.of(DATABASE), List.of());
        ForeignKeys.validate(before, "shop", employee, employee.foreignKeys(), true);
        InfoSchema after = new InfoSchema(2, List.of(DATABASE), List.of(employee));
        assertThat(after.referencing(30)).extracting(ForeignKeyReference::table).containsExactly(employee);
    }

    @Test
    void referencedTablesCannotBeTruncatedOrDroppedAlone() {
        TableInfo orders = child(key("orders_ibfk_1", "customer_id", "customer", "id", null), false);
        InfoSchema schema = new InfoSchema(1, List.of(DATABASE), List.of(CUSTOMER, orders));
        assertThat(schema.hasForeignKeys()).isTrue();
        assertThat(schema.referencing(CUSTOMER.id())).extracting(ForeignKeyReference::table).containsExactly(orders);
        assertThatThrownBy(() -> ForeignKeys.checkTruncatable(schema, new String[] {"shop", "customer"}))
                .isInstanceOfSatisfying(DuetException.class, e -> assertThat(e.getMessage()).isEqualTo(
                        "Cannot truncate a table referenced in a foreign key constraint (`shop`.`orders`, CONSTRAINT"
                                + " `orders_ibfk_1` FOREIGN KEY (`customer_id`) REFERENCES `shop`.`customer` (`id`))"));
        ForeignKeys.checkTruncatable(schema, new String[] {"shop", "orders"});
        List<String[]> both = new ArrayList<>();
        both.add(new String[] {"shop", "customer"});
        assertThatThrownBy(() -> ForeignKeys.checkDroppable(schema, both)).isInstanceOfSatisfying(DuetException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.FOREIGN_KEY_CANNOT_DROP_PARENT));
        both.add(new String[] {"shop", "orders"});
        ForeignKeys.checkDroppable(schema, both);
    }
}
