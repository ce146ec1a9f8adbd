package io.duetdb.common.json;

import static java.util.Objects.requireNonNull;

/** A well-formed path where the function cannot use it. */
public final class JsonPathUsageException extends RuntimeException {
    /** What the function cannot take. */
    public enum Problem {
        /** Wildcards and ** where one place must be named (JSON_SET and its kin). */
        WILDCARD("In this situation, path expressions may not contain the * and ** tokens."),
        /** {@code $} alone where it would remove the whole document. */
        WHOLE_DOCUMENT("The path expression '$' is not allowed in this context."),
        /** JSON_ARRAY_INSERT's path must end in an array cell. */
        NOT_ARRAY_CELL("A path expression is not a path to a cell in an array.");

        private final String message;

        Problem(String message) {
            this.message = message;
        }
    }

    private final Problem problem;

    public JsonPathUsageException(Problem problem) {
        super(requireNonNull(problem, "problem is null").message);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
