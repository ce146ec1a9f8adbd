package io.duetdb.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

class TypeChangeTest {
    private static SqlType integer(SqlTypeName name, boolean unsigned) {
        return new SqlType(name, 11, 0, unsigned);
    }

    @Test
    void enumsAndSetsWidenOnlyWhenTheNewValuesIncludeTheOld() {
        SqlType small = SqlType.withElements(SqlTypeName.ENUM, List.of("a", "b"));
        SqlType larger = SqlType.withElements(SqlTypeName.ENUM, List.of("b", "a", "c"));
        SqlType other = SqlType.withElements(SqlTypeName.ENUM, List.of("a", "x"));
        assertThat(TypeChange.of(small, larger)).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(larger, small)).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(small, other)).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(SqlType.varchar(1), small)).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(small, SqlType.withElements(SqlTypeName.SET, List.of("a", "b"))))
                .isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(small, SqlType.varchar(1))).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.varchar(1), SqlType.JSON)).isEqualTo(TypeChange.REWRITE);
    }

    @Test
    void integersWidenWhenTheNewRangeHoldsTheOld() {
        assertThat(TypeChange.of(SqlType.INT, SqlType.BIGINT)).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(integer(SqlTypeName.TINYINT, true), integer(SqlTypeName.SMALLINT, true)))
                .isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.BIGINT, SqlType.INT)).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(integer(SqlTypeName.INT, true), integer(SqlTypeName.SMALLINT, true)))
                .isEqualTo(TypeChange.NARROWING);
        // Signed and unsigned integers are stored differently.
        assertThat(TypeChange.of(SqlType.INT, integer(SqlTypeName.INT, true))).isEqualTo(TypeChange.REWRITE);
        assertThat(TypeChange.of(SqlType.INT, new SqlType(SqlTypeName.YEAR, 4, 0, false))).isEqualTo(TypeChange.REWRITE);
    }

    @Test
    void stringsAndBinariesFollowTheirLengths() {
        assertThat(TypeChange.of(SqlType.varchar(10), SqlType.varchar(20))).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.varchar(10), SqlType.LONGTEXT)).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.LONGTEXT, SqlType.varchar(10))).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(SqlType.varchar(10), new SqlType(SqlTypeName.CHAR, 10, 0, false)))
                .isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(new SqlType(SqlTypeName.BINARY, 4, 0, false), new SqlType(SqlTypeName.VARBINARY, 8, 0,
                false))).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(new SqlType(SqlTypeName.VARBINARY, 4, 0, false), new SqlType(SqlTypeName.BINARY, 8, 0,
                false))).isEqualTo(TypeChange.REWRITE);
        assertThat(TypeChange.of(SqlType.varchar(10), SqlType.INT)).isEqualTo(TypeChange.REWRITE);
    }

    @Test
    void decimalsKeepTheirScaleAndTemporalsTheirFractions() {
        assertThat(TypeChange.of(SqlType.decimal(10, 2), SqlType.decimal(12, 2))).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.decimal(12, 2), SqlType.decimal(10, 2))).isEqualTo(TypeChange.NARROWING);
        assertThat(TypeChange.of(SqlType.decimal(10, 2), SqlType.decimal(10, 3))).isEqualTo(TypeChange.REWRITE);
        assertThat(TypeChange.of(SqlType.datetime(0), SqlType.datetime(3))).isEqualTo(TypeChange.WIDENING);
        assertThat(TypeChange.of(SqlType.datetime(3), SqlType.datetime(0))).isEqualTo(TypeChange.REWRITE);
        assertThat(TypeChange.of(SqlType.DOUBLE, new SqlType(SqlTypeName.FLOAT, 12, 31, false)))
                .isEqualTo(TypeChange.REWRITE);
    }
}
