package io.duetdb.sql.prepare;

import java.math.RoundingMode;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.types.SqlType;

/**
 * MySQL's limits: DECIMAL up to (65, 30), fractional seconds up to 6 digits, MySQL's SUM / AVG types and rounding.
 */
final class DuetTypeSystem extends RelDataTypeSystemImpl {
    static final DuetTypeSystem INSTANCE = new DuetTypeSystem();

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    /** MySQL rounds exact values half away from zero (CAST(1.567 AS DECIMAL(5, 2)) is 1.57), where Calcite cuts. */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> SqlType.MAX_DECIMAL_PRECISION;
            case TIMESTAMP, TIME, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> SqlType.MAX_FRACTIONAL_SECONDS;
            case VARCHAR, VARBINARY -> Integer.MAX_VALUE;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return SqlType.MAX_DECIMAL_SCALE;
        }
        return super.getMaxScale(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIME) {
            return 0;
        }
        return super.getDefaultPrecision(typeName);
    }

    /** MySQL: SUM of an exact number is DECIMAL(65, s); of an approximate one DOUBLE. */
    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType sumType;
        if (SqlTypeName.APPROX_TYPES.contains(argumentType.getSqlTypeName())) {
            sumType = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        } else if (SqlTypeName.EXACT_TYPES.contains(argumentType.getSqlTypeName())) {
            int scale = argumentType.getSqlTypeName() == SqlTypeName.DECIMAL ? argumentType.getScale() : 0;
            sumType = typeFactory.createSqlType(SqlTypeName.DECIMAL, SqlType.MAX_DECIMAL_PRECISION, scale);
        } else {
            return super.deriveSumType(typeFactory, argumentType);
        }
        return typeFactory.createTypeWithNullability(sumType, argumentType.isNullable());
    }

    /** MySQL: AVG of an exact number is DECIMAL with four more digits of scale; of an approximate one DOUBLE. */
    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType avgType;
        if (SqlTypeName.EXACT_TYPES.contains(argumentType.getSqlTypeName())) {
            int scale = Math.min(SqlType.MAX_DECIMAL_SCALE,
                    (argumentType.getSqlTypeName() == SqlTypeName.DECIMAL ? argumentType.getScale() : 0) + 4);
            avgType = typeFactory.createSqlType(SqlTypeName.DECIMAL, SqlType.MAX_DECIMAL_PRECISION, scale);
        } else {
            avgType = typeFactory.createSqlType(SqlTypeName.DOUBLE);
        }
        return typeFactory.createTypeWithNullability(avgType, argumentType.isNullable());
    }
}
