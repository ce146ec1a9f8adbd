package io.duetdb.common.codec;

/** Bytes that do not decode: truncated, corrupted, or written by another encoding. */
public final class CodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CodecException(String message) {
        super(message);
    }
}
