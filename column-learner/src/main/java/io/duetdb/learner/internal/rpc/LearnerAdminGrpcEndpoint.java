package io.duetdb.learner.internal.rpc;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Executor;

import io.duetdb.learner.internal.LearnerNode;
import io.duetdb.learner.internal.region.ColumnarRegion;
import io.duetdb.proto.store.CreatePeerRequest;
import io.duetdb.proto.store.CreatePeerResponse;
import io.duetdb.proto.store.GetResolvedTsRequest;
import io.duetdb.proto.store.GetResolvedTsResponse;
import io.duetdb.proto.store.ListRegionsRequest;
import io.duetdb.proto.store.ListRegionsResponse;
import io.duetdb.proto.store.LocalRegion;
import io.duetdb.proto.store.PushResolvedTsRequest;
import io.duetdb.proto.store.PushResolvedTsResponse;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.grpc.stub.StreamObserver;

/**
 * The store administration service as a learner answers it: region leaders ask it to create replicas, operators
 * list them. Splits, merges, leader transfers and snapshots are row-store calls; a learner leads nothing and
 * answers them as unimplemented. Region leaders also push their resolved timestamps here.
 */
public final class LearnerAdminGrpcEndpoint extends StoreAdminGrpc.StoreAdminImplBase {
    private final LearnerNode node;
    private final Executor executor;

    public LearnerAdminGrpcEndpoint(LearnerNode node, Executor executor) {
        this.node = requireNonNull(node, "node is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    @Override
    public void createPeer(CreatePeerRequest request, StreamObserver<CreatePeerResponse> observer) {
        executor.execute(() -> {
            try {
                observer.onNext(node.createPeer(request));
                observer.onCompleted();
            } catch (RuntimeException e) {
                observer.onError(e);
            }
        });
    }

    @Override
    public void pushResolvedTs(PushResolvedTsRequest request, StreamObserver<PushResolvedTsResponse> observer) {
        int accepted = node.acceptResolvedTs(request.getRegionsList());
        observer.onNext(PushResolvedTsResponse.newBuilder().setAccepted(accepted).build());
        observer.onCompleted();
    }

    @Override
    public void getResolvedTs(GetResolvedTsRequest request, StreamObserver<GetResolvedTsResponse> observer) {
        long min = Long.MAX_VALUE;
        int replicas = 0;
        for (ColumnarRegion replica : node.replicas()) {
            if (replica.region() != null) {
                replicas++;
                min = Math.min(min, replica.resolvedTs());
            }
        }
        observer.onNext(GetResolvedTsResponse.newBuilder().setMinResolvedTs(replicas == 0 ? 0 : min)
                .setReplicas(replicas).build());
        observer.onCompleted();
    }

    @Override
    public void listRegions(ListRegionsRequest request, StreamObserver<ListRegionsResponse> observer) {
        ListRegionsResponse.Builder response = ListRegionsResponse.newBuilder();
        for (ColumnarRegion replica : node.replicas()) {
            LocalRegion.Builder local = LocalRegion.newBuilder().setRole("LISTENER")
                    .setAppliedIndex(Math.max(0, replica.applied().index())).setState(replica.region() == null
                            ? "WAITING_FOR_SNAPSHOT" : replica.state().name());
            if (replica.region() != null) {
                local.setRegion(replica.region());
            }
            response.addRegions(local);
        }
        observer.onNext(response.build());
        observer.onCompleted();
    }
}
