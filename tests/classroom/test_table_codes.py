"""The shared table's codes and secrets (docs/TABLE.md T1, T3, T6, T8) and its refusals' words."""

from __future__ import annotations

import math
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speculation_nb.classroom.codes import (
    ALPHABET,
    CODE_LENGTH,
    check_request_id,
    check_token,
    new_code,
    new_request_id,
    new_secret,
    new_token,
    read_code,
    same_secret,
    secret_hash,
    show_code,
)
from speculation_nb.classroom.errors import TableRefusal
from speculation_nb.languages.translator import error_text, translator


def test_T1_the_alphabet_has_31_letters_without_the_ones_read_alike():
    assert len(ALPHABET) == len(set(ALPHABET)) == 31
    assert not set("01OIL") & set(ALPHABET)
    assert CODE_LENGTH * math.log2(len(ALPHABET)) > 49  # about 50 bits


def test_T1_new_codes_are_ten_letters_of_the_alphabet_and_differ():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    assert new_code(random.Random(4)) == new_code(random.Random(4))


@given(st.text(alphabet=ALPHABET, min_size=10, max_size=10))
def test_T1_a_code_reads_back_whatever_its_case_spaces_and_dashes(code):
    shown = show_code(code)
    assert shown[5] == "-" and shown.replace("-", "") == code
    assert read_code(shown) == code
    assert read_code(f"  {shown.lower()[:3]} {shown.lower()[3:]} ") == code


@pytest.mark.parametrize(
    ("typed", "key", "params"),
    [
        (None, "table.code_type", {}),
        (12345, "table.code_type", {}),
        ("ABCDE-FGHJ", "table.code_length", {"length": 9, "expected": 10}),
        ("ABCDE-FGHJKM", "table.code_length", {"length": 11, "expected": 10}),
        ("ABCDE-FGH0K", "table.code_letter", {"letter": "0"}),
        ("abcde-fghok", "table.code_letter", {"letter": "O"}),
        ("ABCDE_FGHJK", "table.code_letter", {"letter": "_"}),
        ("", "table.code_length", {"length": 0, "expected": 10}),
    ],
)
def test_T1_anything_else_is_refused_with_the_reason(typed, key, params):
    with pytest.raises(TableRefusal) as info:
        read_code(typed)
    assert (info.value.rule, info.value.key, info.value.params) == ("T1", key, params)
    assert str(info.value).startswith("T1: ") and "{" not in str(info.value)


def test_T3_secrets_are_kept_as_hashes_and_compared_in_constant_time():
    secret = new_secret()
    assert len(secret) >= 40 and secret != new_secret()
    hashed = secret_hash(secret)
    assert len(hashed) == 64 and secret not in hashed
    assert same_secret(secret, hashed)
    assert not same_secret(secret + "x", hashed)
    assert not same_secret(None, hashed) and not same_secret(secret, None) and not same_secret(123, hashed)


def test_T6_request_ids_and_reply_tokens_have_their_shape():
    assert check_request_id(new_request_id())
    assert check_token(new_token())
    for bad in ("short", "x" * 65, "has space!", None, 12345678):
        with pytest.raises(TableRefusal) as info:
            check_request_id(bad)
        assert info.value.rule == "T6"
    assert not check_token("x" * 31) and not check_token(None) and not check_token("a/b" * 20)


def test_a_refusal_is_worded_in_four_languages_from_rule_key_and_params():
    refusal = TableRefusal("T3", "table.not_your_seat", {"seat": 2})
    assert str(refusal) == "T3: You do not play for seat 2: act only for your own seat."
    assert error_text(refusal, translator("en"), ["Fanny", "Edmund", "Mary"]).startswith(
        "Rule T3: You do not play for Mary"
    )
    words = {lang: error_text(refusal, translator(lang), ["Fanny", "Edmund", "Mary"]) for lang in ("it", "pt", "de")}
    assert words["it"].startswith("Regola T3: ") and words["pt"].startswith("Regra T3: ")
    assert words["de"].startswith("Regel T3: ") and all("Mary" in w for w in words.values())
    assert pickle.loads(pickle.dumps(refusal)).params == {"seat": 2}
    assert refusal.to_reply("r1") == {
        "ok": False,
        "rid": "r1",
        "rule": "T3",
        "key": "table.not_your_seat",
        "params": {"seat": 2},
    }
