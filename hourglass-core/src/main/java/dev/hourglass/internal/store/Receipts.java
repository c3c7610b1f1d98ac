package dev.hourglass.internal.store;

/**
 * The receipt of a delivery: the claim's lease token, which Redis keeps with the lease, and a mark
 * of the job's id, which the client checks before it presents the token, so that receipts differ
 * from job to job and one job's receipt presents no lease of another's.
 */
final class Receipts {
  private static final char[] B64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

  private Receipts() {}

  /**
   * The receipt of job {@code id}'s delivery under lease {@code token}: the token, '.', and 11
   * characters of a 64-bit hash of the id, so that receipts differ from job to job (and claim to
   * claim); Redis keeps only the token ({@link #leaseOf}).
   */
  static String receipt(String token, String id) {
    char[] r = new char[token.length() + 12];
    token.getChars(0, token.length(), r, 0);
    r[token.length()] = '.';
    mark(id, r, token.length() + 1);
    return new String(r);
  }

  /** The 11 characters of a job's mark, written at {@code at}. */
  private static void mark(String id, char[] into, int at) {
    long h = 0xcbf29ce484222325L; // FNV-1a, then MurmurHash3's 64-bit finalizer
    for (int i = 0; i < id.length(); i++) {
      h = (h ^ id.charAt(i)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    for (int i = 0; i < 11; i++) {
      into[at + i] = B64[(int) (h >>> (6 * i)) & 63];
    }
  }

  /**
   * The lease token a receipt presents for job {@code id}: its token when it is a receipt of this
   * job's, else the empty string, which holds no lease (so the script refuses it as stale, or not
   * found when the job is gone).
   */
  static String leaseOf(String receipt, String id) {
    int t = receipt.length() - 12;
    if (t <= 0 || receipt.charAt(t) != '.') {
      return "";
    }
    char[] expected = new char[11];
    mark(id, expected, 0);
    for (int i = 0; i < 11; i++) {
      if (receipt.charAt(t + 1 + i) != expected[i]) {
        return "";
      }
    }
    return receipt.substring(0, t);
  }
}
