package dev.hourglass.server;

import java.util.ArrayList;
import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.quicktheories.generators.SourceDSL;

/**
 * The generator shapes {@link FuzzRequests} is written in, on QuickTheories' {@link Generate}:
 * weighted choice, a choice among values, strings over an alphabet, lists and sequences.
 *
 * <p>Every value is drawn from QuickTheories' randomness source through {@link Generate}'s ranges,
 * never from a {@code Random} of their own, so whatever is built from them replays from the seed
 * and shrinks: a choice towards its first option, a number towards zero (or the end of its range
 * nearest to zero), a length towards its minimum, a char towards {@code 'a'} (or the end of its
 * range nearest to it).
 */
final class Gens {
  private Gens() {}

  /** An option for {@link #frequency}. */
  static <T> Pair<Integer, Gen<T>> weight(int weight, Gen<T> gen) {
    return Pair.of(weight, gen);
  }

  /** One of the options, each as likely as its weight says; shrinks towards the first one. */
  @SafeVarargs
  static <T> Gen<T> frequency(Pair<Integer, Gen<T>>... options) {
    List<Pair<Integer, Gen<T>>> list = new ArrayList<>(options.length);
    for (Pair<Integer, Gen<T>> option : options) {
      list.add(option);
    }
    return Generate.frequency(list);
  }

  /** One of the options, weights in a list. */
  static <T> Gen<T> frequency(List<Pair<Integer, Gen<T>>> options) {
    return Generate.frequency(options);
  }

  /** Always {@code value}. */
  static <T> Gen<T> just(T value) {
    return Generate.constant(value);
  }

  /** One of {@code values}, all as likely; shrinks towards the first. */
  @SafeVarargs
  static <T> Gen<T> oneOf(T... values) {
    List<T> list = new ArrayList<>(values.length);
    for (T value : values) {
      list.add(value);
    }
    return Generate.pick(list);
  }

  /** One of {@code values}, all as likely; shrinks towards the first. */
  static <T> Gen<T> oneOf(List<T> values) {
    return Generate.pick(List.copyOf(values));
  }

  /** A value of one of the generators, each as likely; shrinks towards the first. */
  @SafeVarargs
  static <T> Gen<T> oneOfGens(Gen<T> first, Gen<T>... others) {
    List<Pair<Integer, Gen<T>>> options = new ArrayList<>();
    options.add(weight(1, first));
    for (Gen<T> other : others) {
      options.add(weight(1, other));
    }
    return Generate.frequency(options);
  }

  static Gen<Integer> ints(int min, int max) {
    return Generate.range(min, max);
  }

  static Gen<Long> longs(long min, long max) {
    return Generate.longRange(min, max);
  }

  /** Any long, edges included. */
  static Gen<Long> anyLong() {
    return SourceDSL.longs().all();
  }

  /** Strings of {@code min} to {@code max} chars, each one of {@code alphabet}'s. */
  static Gen<String> strings(String alphabet, int min, int max) {
    List<Character> chars = alphabet.chars().mapToObj(c -> (char) c).toList();
    return listOf(oneOf(chars), min, max).map(Gens::join);
  }

  /** Strings of {@code min} to {@code max} chars, each between {@code from} and {@code to}. */
  static Gen<String> strings(char from, char to, int min, int max) {
    int shrinkTarget = Math.max(from, Math.min(to, 'a'));
    Gen<Character> chars = Generate.range(from, to, shrinkTarget).map(c -> (char) c.intValue());
    return listOf(chars, min, max).map(Gens::join);
  }

  /** Lists of {@code min} to {@code max} elements. */
  static <T> Gen<List<T>> listOf(Gen<T> element, int min, int max) {
    Gen<Integer> sizes = Generate.range(min, max);
    return in -> {
      int size = sizes.generate(in);
      List<T> out = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        out.add(element.generate(in));
      }
      return out;
    };
  }

  /** One value of each generator, in their order. */
  static <T> Gen<List<T>> sequence(List<Gen<T>> gens) {
    List<Gen<T>> copy = List.copyOf(gens);
    return in -> {
      List<T> out = new ArrayList<>(copy.size());
      for (Gen<T> gen : copy) {
        out.add(gen.generate(in));
      }
      return out;
    };
  }

  /** Byte arrays of {@code min} to {@code max} bytes, any value. */
  static Gen<byte[]> byteArrays(int min, int max) {
    return Generate.byteArrays(
        Generate.range(min, max), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
  }

  private static String join(List<Character> chars) {
    StringBuilder out = new StringBuilder(chars.size());
    chars.forEach(out::append);
    return out.toString();
  }
}
