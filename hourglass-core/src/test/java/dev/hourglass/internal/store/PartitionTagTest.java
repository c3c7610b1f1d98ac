package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Partition tags spread a queue's partitions evenly over the cluster slot space. */
class PartitionTagTest {
  @Test
  void partitionIOfPHasItsSlotInTheIthOfPEqualRanges() {
    for (String queue : new String[] {"q", "orders", "a.b-c_d", "x".repeat(100)}) {
      for (int partitions : new int[] {2, 3, 4, 6, 7, 16, 100, 1024}) {
        Set<String> tags = new HashSet<>();
        for (int i = 0; i < partitions; i++) {
          String tag = Keys.partitionTag(queue, i, partitions);
          int slot = Keys.slot(tag);
          assertThat(slot)
              .as("slot of %s, partition %d of %d", tag, i, partitions)
              .isGreaterThanOrEqualTo(i * Keys.CLUSTER_SLOTS / partitions)
              .isLessThan((i + 1) * Keys.CLUSTER_SLOTS / partitions);
          assertThat(tag).startsWith(queue + "." + i).doesNotContain("{", "}");
          tags.add(tag);
        }
        assertThat(tags).hasSize(partitions);
      }
    }
  }

  @Test
  void aSinglePartitionKeepsThePlainTagAndTagsAreStable() {
    assertThat(Keys.partitionTag("orders", 0, 1)).isEqualTo("orders.0");
    assertThat(new Keys("hg").partition("orders", 0, 1, 40).meta()).isEqualTo("hg:{orders.0}:meta");
    // Pinned: a change of these is a layout change (Keys.LAYOUT_VERSION). The plain tags of
    // "orders" (slots 11829, 15892, 3703) would leave the middle third of the slots empty.
    assertThat(List.of(0, 1, 2))
        .map(i -> Keys.partitionTag("orders", i, 3))
        .containsExactly("orders.0~4", "orders.1~2", "orders.2~1");
    assertThat(Keys.partitionTag("orders", 4, 6)).isEqualTo("orders.4");
  }

  @Test
  void slotIsRedisKeyslot() {
    // CLUSTER KEYSLOT values from the Redis cluster specification's examples.
    assertThat(Keys.slot("123456789")).isEqualTo(0x31C3 % Keys.CLUSTER_SLOTS);
  }
}
