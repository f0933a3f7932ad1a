// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {ERC2981} from "@openzeppelin/contracts/token/common/ERC2981.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// CUBE Music NFTs: ERC-721 with per-token metadata URIs and EIP-2981 royalties.
/// Only the owner (the CUBE server's minter key) mints; the server burns the user's 100 CUBE first.
contract CubeMusicNFT is ERC721URIStorage, ERC2981, Ownable {
    uint256 private _nextTokenId = 1;

    constructor(address minter) ERC721("CUBE Music NFT", "CUBENFT") Ownable(minter) {}

    /// Mints the next token to `to` with its metadata URI and a royalty of `feeBps` (basis points) paid to `royaltyReceiver`.
    function mint(address to, string calldata uri, address royaltyReceiver, uint96 feeBps) external onlyOwner returns (uint256 tokenId) {
        tokenId = _nextTokenId++;
        _safeMint(to, tokenId);
        _setTokenURI(tokenId, uri);
        _setTokenRoyalty(tokenId, royaltyReceiver, feeBps);
    }

    function supportsInterface(bytes4 interfaceId) public view override(ERC721URIStorage, ERC2981) returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
