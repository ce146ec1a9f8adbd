package io.duetdb.store.internal.region;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaderLeaseTest {
    @Test
    void validOnlyInItsTermAndBeforeItRunsOut() {
        LeaderLease lease = new LeaderLease(900);
        assertThat(lease.isValid(1, 0)).isFalse();
        lease.renew(1, 1_000);
        assertThat(lease.isValid(1, 1_500)).isTrue();
        assertThat(lease.isValid(2, 1_500)).as("another term").isFalse();
        assertThat(lease.isValid(1, 1_900)).isFalse();
        assertThat(lease.isExpiringSoon(1_700)).isTrue();
        lease.renew(1, 500);
        assertThat(lease.isValid(1, 1_800)).as("an older proof does not shorten the lease").isTrue();
        lease.revoke();
        assertThat(lease.isValid(1, 1_001)).isFalse();
    }
}
