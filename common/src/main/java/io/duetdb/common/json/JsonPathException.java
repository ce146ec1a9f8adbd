package io.duetdb.common.json;

/** A path expression that is not one: the character position (1-based, as MySQL reports it) of the fault. */
public final class JsonPathException extends RuntimeException {
    private final int position;

    public JsonPathException(int position) {
        super("Invalid JSON path expression. The error is around character position " + position + ".");
        this.position = position;
    }

    public int position() {
        return position;
    }
}
