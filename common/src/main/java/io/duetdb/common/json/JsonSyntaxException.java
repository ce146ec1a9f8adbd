package io.duetdb.common.json;

/** Text that is not a JSON document: MySQL's (RapidJSON's) description and the character position of the fault. */
public final class JsonSyntaxException extends RuntimeException {
    private final String reason;
    private final int position;

    public JsonSyntaxException(String reason, int position) {
        super(reason + " at position " + position);
        this.reason = reason;
        this.position = position;
    }

    public String reason() {
        return reason;
    }

    public int position() {
        return position;
    }
}
