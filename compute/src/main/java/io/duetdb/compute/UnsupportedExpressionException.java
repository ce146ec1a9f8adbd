package io.duetdb.compute;

/**
 * A plan or expression the coprocessor cannot evaluate. The SQL layer checks its candidates with the same
 * builder the stores use and keeps what fails here for itself.
 */
public final class UnsupportedExpressionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedExpressionException(String message) {
        super(message);
    }
}
