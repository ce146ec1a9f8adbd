package io.duetdb.common.coprocessor;

import io.duetdb.proto.coprocessor.CoprocessorRequest;
import io.duetdb.proto.coprocessor.CoprocessorResponse;

/** Runs coprocessor requests (a row store's or a column learner's), streaming the responses into a sink. */
public interface CoprocessorHandler {
    void execute(CoprocessorRequest request, ResponseSink sink);

    /** Where responses go: the gRPC stream, with its flow control. */
    interface ResponseSink {
        /** Blocks until the client can take another response; false once it has gone away. */
        boolean awaitReady();

        /** Whether the client has gone away (cancelled, or its deadline passed). */
        boolean cancelled();

        void send(CoprocessorResponse response);

        void complete();
    }
}
