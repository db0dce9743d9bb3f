"""The readers of solve requests share one vocabulary, and it agrees with the checker's."""

import pytest

from prefa_sim.core.cards import CardError, parse_strain
from prefa_sim.requests.fields import ANSWER_FIELDS, PLAIN_FIELDS, REQUEST_FIELDS, STRAIN_SPELLINGS
from prefa_sim.requests.solve import RequestError, parse_request

HANDS = ["QJ7.T8.A.KQJT", "AKT.AKJ.QJ7.7", "8.Q97.KT98.98"]


def test_every_spelling_the_fast_paths_take_is_the_checkers_strain():
    for text, strain in STRAIN_SPELLINGS.items():
        assert parse_strain(text) is strain
        assert parse_request({"hands": HANDS, "trump": text}).strains == (strain,)
    for text in ("X", "HH", ""):  # what none of them takes
        assert text not in STRAIN_SPELLINGS
        with pytest.raises((CardError, RequestError)):
            parse_request({"hands": HANDS, "trump": text})


def test_the_fields_fit_together():
    assert set(PLAIN_FIELDS) < REQUEST_FIELDS
    assert not set(ANSWER_FIELDS) & REQUEST_FIELDS
    assert len(set(PLAIN_FIELDS)) == len(PLAIN_FIELDS)
