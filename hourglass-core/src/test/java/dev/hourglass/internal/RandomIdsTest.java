package dev.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.JobSpec;
import dev.hourglass.internal.store.Keys;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomIdsTest {
  private static RandomIds at(long epochMs) {
    return new RandomIds(Clock.fixed(Instant.ofEpochMilli(epochMs), ZoneOffset.UTC));
  }

  @Test
  void anIdIsValidNamesItsPoolLastAndMakesAMemberOf22Bytes() {
    RandomIds ids = at(1_795_000_000_000L);
    for (int pool = 0; pool < 45; pool++) {
      String id = ids.newId(pool);
      assertThat(id).hasSize(Keys.MADE_ID_LENGTH).hasSize(21);
      assertThat(JobSpec.isValidId(id)).as(id).isTrue();
      assertThat(id.charAt(19)).isEqualTo('.');
      assertThat(Keys.poolIndex(id, 45)).as(id).isEqualTo(pool);
    }
  }

  @Test
  void idsMadeLaterSortLaterAndIdsOfOneMillisecondDiffer() {
    String earlier = at(1_795_000_000_000L).newId(3);
    String later = at(1_795_000_000_001L).newId(3);
    String muchLater = at(4_000_000_000_000L).newId(3);
    assertThat(earlier).isLessThan(later);
    assertThat(later).isLessThan(muchLater);

    RandomIds sameMillisecond = at(1_795_000_000_000L);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      assertThat(seen.add(sameMillisecond.newId(7))).isTrue();
    }
  }
}
