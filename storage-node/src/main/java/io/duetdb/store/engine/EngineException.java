package io.duetdb.store.engine;

/** The engine failed: I/O error, corruption, no space. */
public final class EngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean noSpace;

    public EngineException(String message, Throwable cause, boolean noSpace) {
        super(message, cause);
        this.noSpace = noSpace;
    }

    /** The disk is full: writes fail until space is freed. */
    public boolean noSpace() {
        return noSpace;
    }
}
