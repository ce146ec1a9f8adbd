package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;

/**
 * MySQL's collations as Calcite types carry them. A text column of a collation other than the binary one has a
 * Calcite type whose collation names it (coercibility IMPLICIT); {@code x COLLATE name} gives x's type that
 * collation, EXPLICIT; literals keep Calcite's COERCIBLE default. {@link #comparisonCollation} decides by MySQL's
 * coercibility rules which collation a comparison uses, and the planner's {@code CollationRewrite} turns comparisons,
 * sorts and groupings under such a collation into ones over {@link #SORT_KEY}s, which the executor compares as
 * bytes.
 */
public final class MySqlCollations {
    private static final String NAME_PREFIX = "UTF-8$mysql-";

    /** DUET_COLLATE(text, 'collation'): {@code text COLLATE collation}, the text, of that collation (EXPLICIT). */
    public static final SqlFunction COLLATE = new SqlFunction("DUET_COLLATE", SqlKind.OTHER_FUNCTION,
            MySqlCollations::collateType, null, new CollateOperands(), SqlFunctionCategory.SYSTEM);
    /** DUET_COLLATION_KEY(text, 'collation'): the text's sort key under the collation (VARBINARY). */
    public static final SqlFunction SORT_KEY = new SqlFunction("DUET_COLLATION_KEY", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARBINARY).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.ANY_ANY, SqlFunctionCategory.SYSTEM);
    /**
     * DUET_COLLATION_FOLD(text, 'collation'): the text with each character replaced by one standing for its weight,
     * for LIKE ({@link Collation#foldForMatching}).
     */
    public static final SqlFunction FOLD = new SqlFunction("DUET_COLLATION_FOLD", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.ANY_ANY, SqlFunctionCategory.SYSTEM);

    static final SqlOperatorTable OPERATORS = SqlOperatorTables.of(COLLATE);

    private MySqlCollations() {
    }

    /** The Calcite collation of a MySQL collation at a coercibility. */
    public static SqlCollation calcite(Collation collation, SqlCollation.Coercibility coercibility) {
        return new MySqlCollation(collation, coercibility);
    }

    /** {@code type} (a character type) compared by {@code collation} at {@code coercibility}. */
    public static RelDataType withCollation(RelDataTypeFactory factory, RelDataType type, Collation collation,
            SqlCollation.Coercibility coercibility) {
        RelDataType collated = factory.createTypeWithCharsetAndCollation(type, StandardCharsets.UTF_8,
                calcite(collation, coercibility));
        return factory.createTypeWithNullability(collated, type.isNullable());
    }

    /** The MySQL collation a Calcite type compares by: the one it carries, else the binary default. */
    public static Collation of(RelDataType type) {
        return type.getCollation() instanceof MySqlCollation collation ? collation.collation : Collation.DEFAULT;
    }

    /**
     * The collation a comparison (or another operation on two texts) of operands of these types uses, by MySQL's
     * rules: the operand of the stronger coercibility (COLLATE over a column over a literal) decides; at equal
     * strength two collations of which one is binary compare as binary; other differences are 1267. Null when the
     * operands are not both text, or either is JSON (which compares as JSON does).
     */
    public static Collation comparisonCollation(RelDataType left, RelDataType right, String operation) {
        if (!SqlTypeUtil.inCharFamily(left) || !SqlTypeUtil.inCharFamily(right) || JsonTypes.isJson(left)
                || JsonTypes.isJson(right)) {
            return null;
        }
        Collation leftCollation = of(left);
        Collation rightCollation = of(right);
        if (leftCollation == rightCollation) {
            return leftCollation;
        }
        int leftStrength = strength(left);
        int rightStrength = strength(right);
        if (leftStrength != rightStrength) {
            return leftStrength < rightStrength ? leftCollation : rightCollation;
        }
        if (leftCollation.binary() || rightCollation.binary()) {
            return Collation.DEFAULT;
        }
        throw new DuetException(ErrorCode.ILLEGAL_MIX_OF_COLLATIONS, "Illegal mix of collations ("
                + leftCollation.collationName() + "," + coercibilityName(left) + ") and (" + rightCollation.collationName()
                + "," + coercibilityName(right) + ") for operation '" + operation + "'");
    }

    /**
     * {@code text} (a character type unifying {@code types}) with the collation of the strongest of them, as a
     * comparison of them would use it; the binary default where two at that strength conflict.
     */
    static RelDataType unified(RelDataTypeFactory factory, RelDataType text, List<RelDataType> types) {
        RelDataType strongest = null;
        for (RelDataType type : types) {
            if (SqlTypeUtil.inCharFamily(type) && (strongest == null || strength(type) < strength(strongest))) {
                strongest = type;
            }
        }
        if (strongest == null || !collated(strongest)) {
            return text;
        }
        for (RelDataType type : types) {
            if (SqlTypeUtil.inCharFamily(type) && strength(type) == strength(strongest) && of(type) != of(strongest)) {
                return text;
            }
        }
        return withCollation(factory, text, of(strongest), coercibility(strongest));
    }

    /** Whether the type is text compared by a collation other than the binary one. */
    public static boolean collated(RelDataType type) {
        return SqlTypeUtil.inCharFamily(type) && !JsonTypes.isJson(type) && !of(type).binary();
    }

    /** The collation a DUET_COLLATION_KEY or DUET_COLLATION_FOLD call names (its literal second operand). */
    public static Collation named(String name) {
        return Collation.named(name).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_COLLATION,
                "Unknown collation: '" + name + "'"));
    }

    /** Lower is stronger: EXPLICIT, IMPLICIT, COERCIBLE, NONE. */
    private static int strength(RelDataType type) {
        return coercibility(type).ordinal();
    }

    /**
     * A type without one of these collations counts as COERCIBLE, a column of the binary default as much as a
     * literal: Calcite interns types by a digest without the coercibility, so its IMPLICIT and COERCIBLE defaults
     * cannot be told apart. (MySQL lets a utf8mb4_bin column win over another collation's column; here the other
     * collation wins.)
     */
    private static SqlCollation.Coercibility coercibility(RelDataType type) {
        return type.getCollation() instanceof MySqlCollation collation ? collation.getCoercibility()
                : SqlCollation.Coercibility.COERCIBLE;
    }

    private static String coercibilityName(RelDataType type) {
        return coercibility(type).name();
    }

    private static RelDataType collateType(SqlOperatorBinding binding) {
        RelDataType text = binding.getOperandType(0);
        String name = binding.getOperandLiteralValue(1, String.class);
        Collation collation = named(requireNonNull(name, "collation name"));
        if (!SqlTypeUtil.inCharFamily(text) || JsonTypes.isJson(text)) {
            throw new DuetException(ErrorCode.COLLATION_CHARSET_MISMATCH, "COLLATION '" + name
                    + "' is not valid for CHARACTER SET 'binary'");
        }
        return withCollation(binding.getTypeFactory(), text, collation, SqlCollation.Coercibility.EXPLICIT);
    }

    /** Any operand, then the collation's name as a string literal. */
    private static final class CollateOperands implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            return binding.isOperandLiteral(1, false);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String name) {
            return "DUET_COLLATE(<text>, <collation>)";
        }
    }

    /** One of MySQL's collations; Calcite knows it by name only (it never collates text itself here). */
    private static final class MySqlCollation extends SqlCollation {
        private final Collation collation;

        // The charset Calcite's own default collation names: Calcite compares texts (LIKE) only of collations of one.
        MySqlCollation(Collation collation, Coercibility coercibility) {
            super(coercibility, Locale.ROOT, SqlCollation.IMPLICIT.getCharset(), collation.collationName());
            this.collation = collation;
        }

        // The coercibility is part of the name: Calcite interns types by a digest that names the collation only.
        @Override
        protected String generateCollationName(Charset charset) {
            return NAME_PREFIX + getCoercibility().name().toLowerCase(Locale.ROOT) + "$" + strength;
        }
    }
}
