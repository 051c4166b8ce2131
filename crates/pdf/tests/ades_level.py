"""Validates the first signature of a PDF with pyHanko's AdES API (ETSI EN 319 102-1) and prints
what it found, one `key value` per line, for the PAdES tests to assert on:

    subfilter /ETSI.CAdES.detached
    timestamp yes|no
    indication AdESPassed.OK | AdESIndeterminate.… | AdESFailure.…
    best_signature_time <the time the signature is proven to have existed>   (with a timestamp)

Without a signature timestamp it runs the basic validation (PAdES B-B); with one, the validation
with time (PAdES B-T), which also checks the timestamp token against the trust roots given.

Usage: python3 ades_level.py FILE.pdf ROOT.pem [ROOT.pem ...]
"""

import asyncio
import sys

from pyhanko.keys import load_certs_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import ades
from pyhanko.sign.validation.policy_decl import SignatureValidationSpec
from pyhanko_certvalidator.context import CertValidationPolicySpec
from pyhanko_certvalidator.policy_decl import CertRevTrustPolicy, RevocationCheckingPolicy, RevocationCheckingRule
from pyhanko_certvalidator.registry import SimpleTrustManager


async def main(pdf, roots):
    spec = SignatureValidationSpec(
        cert_validation_policy=CertValidationPolicySpec(
            trust_manager=SimpleTrustManager.build(trust_roots=list(load_certs_from_pemder(roots))),
            # Throwaway test CAs publish no revocation information.
            revinfo_policy=CertRevTrustPolicy(
                RevocationCheckingPolicy(
                    ee_certificate_rule=RevocationCheckingRule.NO_CHECK,
                    intermediate_ca_cert_rule=RevocationCheckingRule.NO_CHECK,
                )
            ),
        )
    )
    with open(pdf, "rb") as f:
        signature = PdfFileReader(f).embedded_signatures[0]
        try:
            ades.find_unique_cms_attribute(signature.signer_info["unsigned_attrs"], "signature_time_stamp_token")
            timestamped = True
        except ades.NonexistentAttributeError:
            timestamped = False
        validate = ades.ades_with_time_validation if timestamped else ades.ades_basic_validation
        result = await validate(signature.signed_data, spec, raw_digest=signature.compute_digest())
        print("subfilter", signature.sig_object["/SubFilter"])
        print("timestamp", "yes" if timestamped else "no")
        print("indication", result.ades_subindic)
        if timestamped:
            print("best_signature_time", result.best_signature_time)


asyncio.run(main(sys.argv[1], sys.argv[2:]))
