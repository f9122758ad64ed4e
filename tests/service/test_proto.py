"""The committed generated code in service/api/ matches protos/fortress_solver.proto.

The proto is compiled afresh to a descriptor set and compared with the descriptor the
committed fortress_solver_pb2 module carries. Two fields are left out of the comparison
on both sides: the file `name` (it holds the include path: the Makefile maps protos/ to
service/api/) and the fields' `json_name` (protoc writes it into descriptor sets, the
Python generator leaves it out of the code it writes).
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"
PROTO = PROTOS / "fortress_solver.proto"
API = ROOT / "service" / "api"


def compiled(proto: Path, tmp_path: Path) -> descriptor_pb2.FileDescriptorProto:
    """`proto` compiled by grpc_tools' protoc, as its one FileDescriptorProto."""
    out = tmp_path / "set.pb"
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{proto.parent}",
                    f"--descriptor_set_out={out}", str(proto)],
                   check=True, capture_output=True, text=True, cwd=tmp_path)
    descriptor_set = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    assert len(descriptor_set.file) == 1
    return normalised(descriptor_set.file[0])


def committed() -> descriptor_pb2.FileDescriptorProto:
    return normalised(descriptor_pb2.FileDescriptorProto.FromString(pb.DESCRIPTOR.serialized_pb))


def normalised(file: descriptor_pb2.FileDescriptorProto) -> descriptor_pb2.FileDescriptorProto:
    copy = descriptor_pb2.FileDescriptorProto()
    copy.CopyFrom(file)
    copy.ClearField("name")
    copy.ClearField("source_code_info")
    messages = list(copy.message_type)
    while messages:
        message = messages.pop()
        for field in (*message.field, *message.extension):
            field.ClearField("json_name")
        messages += message.nested_type
    for field in copy.extension:
        field.ClearField("json_name")
    return copy


def differences(expected, actual) -> str:
    return "".join(difflib.unified_diff(str(expected).splitlines(True),
                                        str(actual).splitlines(True),
                                        "committed service/api", "protos/ compiled now"))


def test_generated_code_is_not_stale(tmp_path):
    fresh, generated = compiled(PROTO, tmp_path), committed()
    assert fresh == generated, ("service/api/ is stale; run `make proto`:\n"
                                + differences(generated, fresh))
    assert fresh.package == "fortress.solver.v1"
    assert [s.name for s in fresh.service] == ["Solver"]


@pytest.mark.parametrize("change", [
    ("message Move {\n  string card = 1;",
     "message Move {\n  string card = 1;\n  string note = 9;"),  # an extra field
    ("uint32 queue = 2;", "uint64 queue = 2;"),  # a field's type
    ("rpc GetServerInfo(", "rpc Ping(GetServerInfoRequest) returns (ServerInfo);\n"
                           "  rpc GetServerInfo("),  # an extra method
    ("STATUS_UNKNOWN = 3;", "STATUS_UNKNOWN = 3;\n  STATUS_REFUSED = 4;"),  # an extra enum value
], ids=["extra-field", "field-type", "extra-rpc", "extra-enum-value"])
def test_comparison_catches_a_changed_proto(tmp_path, monkeypatch, change):
    """The check above fails after a change to the proto (made on a copy, the real one
    is left alone), and passes on an unchanged copy."""
    old, new = change
    text = PROTO.read_text()
    assert text.count(old) == 1
    unchanged, changed = tmp_path / "unchanged", tmp_path / "changed"
    for folder, content in ((unchanged, text), (changed, text.replace(old, new))):
        folder.mkdir()
        (folder / PROTO.name).write_text(content)
    monkeypatch.setattr(sys.modules[__name__], "PROTO", unchanged / PROTO.name)
    test_generated_code_is_not_stale(unchanged)
    monkeypatch.setattr(sys.modules[__name__], "PROTO", changed / PROTO.name)
    with pytest.raises(AssertionError, match="service/api/ is stale"):
        test_generated_code_is_not_stale(changed)


def test_comments_alone_do_not_count(tmp_path):
    copy_dir = tmp_path / "protos"
    copy_dir.mkdir()
    copy = copy_dir / PROTO.name
    copy.write_text("// an extra comment\n" + PROTO.read_text())
    assert compiled(copy, tmp_path) == committed()


def test_grpc_module_serves_every_rpc_of_the_proto():
    service = pb.DESCRIPTOR.services_by_name["Solver"]
    assert service.full_name == "fortress.solver.v1.Solver"
    methods = {m.name: (m.input_type.name, m.output_type.name) for m in service.methods}
    assert methods == {
        "Solve": ("SolveRequest", "SolveResponse"),
        "Hint": ("HintRequest", "HintResponse"),
        "SolveBatch": ("SolveBatchRequest", "BatchResult"),
        "GenerateDeals": ("GenerateDealsRequest", "GeneratedDeal"),
        "GetServerInfo": ("GetServerInfoRequest", "ServerInfo"),
        "Deal": ("DealRequest", "PlayResponse"),
        "Play": ("PlayRequest", "PlayResponse"),
    }
    for name in methods:
        assert callable(getattr(fortress_solver_pb2_grpc.SolverServicer, name))
    source = (API / "fortress_solver_pb2_grpc.py").read_text()
    for name in methods:
        assert f"'/fortress.solver.v1.Solver/{name}'" in source
    connect = (API / "fortress_solver_connect.py").read_text()
    for name in methods:
        assert f'"/fortress.solver.v1.Solver/{name}"' in connect


@pytest.mark.skipif(version("grpcio-tools") != fortress_solver_pb2_grpc.GRPC_GENERATED_VERSION,
                    reason="the committed code came from another grpcio-tools version")
def test_make_proto_reproduces_the_committed_files(tmp_path):
    """The Makefile's `proto` command, run into a scratch tree, writes the same four
    files byte for byte (with the grpcio-tools version that wrote them)."""
    plugin = Path(sys.executable).parent / "protoc-gen-connectrpc"
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-Iservice/api={PROTOS}",
                    f"--python_out={tmp_path}", f"--grpc_python_out={tmp_path}",
                    f"--pyi_out={tmp_path}", f"--plugin=protoc-gen-connectrpc={plugin}",
                    f"--connectrpc_out={tmp_path}", "--connectrpc_opt=protobuf=google",
                    str(PROTO)],
                   check=True, capture_output=True, text=True, cwd=ROOT)
    for name in ("fortress_solver_pb2.py", "fortress_solver_pb2_grpc.py",
                 "fortress_solver_pb2.pyi", "fortress_solver_connect.py"):
        fresh = (tmp_path / "service" / "api" / name).read_text()
        assert fresh == (API / name).read_text(), f"service/api/{name} differs from `make proto`"
